import type { AccountRow, ConversationRow } from "../../db/schema";
import type { Bindings } from "../../env";
import { createDeps, type Deps } from "../../events/deps";
import { toggleStatus } from "../conversations/service.actions";
import { createMessage, type MessageScope } from "../messages/service";
import {
  dueForAutoResolve,
  dueToWake,
  idsOf,
  stillIdle,
  stillSnoozed,
  withAccounts,
} from "./queries";

/** At most this many changes of one kind per tick; the rest are due at the next tick. */
export const TICK_LIMIT = 1000;
/**
 * Conversations worked on at once within a tick. Each resolve is a few D1 round trips and a call
 * to its conversation's room (its activity note), mostly waiting: 16 at a time overlap those
 * waits (the schedule bench: 8 left a 1,000-conversation tick at 160 s on a loaded 2-core box).
 */
const PARALLEL = 16;
/** A worker relays its outbox rows and runs the live handlers once per this many changes. */
const FLUSH_EVERY = 25;

type Due = { account: AccountRow; conversation: ConversationRow };

/** The service acting on its own schedule, in the account, with the tick's clock. */
export const systemScope = (deps: Deps, account: AccountRow): MessageScope => ({
  deps,
  account,
  actor: { kind: "system" },
  role: "administrator",
  origin: "",
});

/**
 * Runs `work` on each due row, `PARALLEL` at a time. Each worker is one unit of work whose events
 * are flushed every `FLUSH_EVERY` rows and at its end (one relay of many outbox rows instead of
 * one per conversation; a conversation's frames keep their commit order); one failure is logged
 * and never stops the others. Answers how many rows `work` reported as changed.
 */
async function each(
  env: Bindings,
  now: number,
  rows: Due[],
  work: (scope: MessageScope, row: Due) => Promise<boolean>,
): Promise<number> {
  let changed = 0;
  let next = 0;
  const worker = async () => {
    const deps = createDeps(env, { now: () => now });
    let unflushed = 0;
    try {
      while (next < rows.length) {
        const row = rows[next++] as Due;
        try {
          if (await work(systemScope(deps, row.account), row)) {
            changed++;
          }
        } catch (error) {
          deps.log.error("timed change failed", { conversation: row.conversation.id, error });
        }
        if (++unflushed === FLUSH_EVERY) {
          unflushed = 0;
          await deps.events.flush();
        }
      }
    } finally {
      await deps.events.flush();
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, rows.length) }, worker));
  return changed;
}

/**
 * Chatwoot parity (Conversations::ResolutionJob): an open conversation idle for the account's
 * `auto_resolve_after` minutes is resolved by the system through the manual resolve's own path
 * (events, activity message, CSAT), then gets `auto_resolve_message` when set. The resolve is
 * conditional on the conversation being still open and idle, so a tick that overlaps another,
 * or a reply that lands meanwhile, resolves nothing and writes nothing.
 */
export async function autoResolveDue(env: Bindings, now: number): Promise<number> {
  const { db } = createDeps(env);
  const due = dueForAutoResolve(now, TICK_LIMIT);
  const ids = [...(await idsOf(db, due.all)), ...(await idsOf(db, due.notWaiting))];
  const rows = await withAccounts(db, ids);
  return each(env, now, rows, async (scope, { account, conversation }) => {
    const minutes = Number(account.settings.auto_resolve_after);
    const ignoreWaiting = account.settings.auto_resolve_ignore_waiting === true;
    const guard = stillIdle(now, minutes, ignoreWaiting);
    const after = await toggleStatus(scope, conversation, { status: "resolved" }, { guard });
    if (after === conversation) {
      return false;
    }
    const message = account.settings.auto_resolve_message;
    if (typeof message === "string" && message.trim() !== "") {
      await createMessage(scope, after, { content: message, messageType: "template" });
    }
    return true;
  });
}

/**
 * Chatwoot parity (Conversations::ReopenSnoozedConversationsJob): a conversation snoozed until a
 * time reopens then. Its idle clock restarts at the wake-up, or the auto-resolve would close it
 * again in the same minute. "Until next reply" (no time) is left to the contact's next message.
 */
export async function wakeSnoozed(env: Bindings, now: number): Promise<number> {
  const rows = await dueToWake(createDeps(env).db, now, TICK_LIMIT);
  return each(env, now, rows, async (scope, { conversation }) => {
    const after = await toggleStatus(
      scope,
      conversation,
      { status: "open" },
      { guard: stillSnoozed(now), values: { lastActivityAt: now } },
    );
    return after !== conversation;
  });
}

import type { AccountRow, ConversationRow } from "../../db/schema";
import type { Bindings, TimedMessage, TimedQueueMessage } from "../../env";
import { createDeps, type Deps } from "../../events/deps";
import { createLogger } from "../../lib/logger";
import { drainFanned } from "../assignment/fanout";
import { closeEndedSessionsLater } from "../contacts/sessions";
import { changeStatusOfMany, type TimedChange } from "../conversations/service.timed";
import { createMessage, type MessageScope } from "../messages/service";
import { stillIdle, stillSnoozed, withAccounts } from "./queries";
import { systemScope } from "./service";

/** A task's change of one conversation, or null when it is no longer due (nothing is written). */
type Plan = (
  account: AccountRow,
  row: ConversationRow,
  at: number,
  seq: number,
) => Omit<TimedChange, "scope" | "row"> | null;

/** A change the consumer plans: its scope also posts messages. */
type Planned = TimedChange & { scope: MessageScope };

const PLANS: Record<TimedMessage["task"], Plan> = {
  auto_resolve: (account, row, at, seq) => {
    const minutes = Number(account.settings.auto_resolve_after);
    const ignoreWaiting = account.settings.auto_resolve_ignore_waiting === true;
    const due =
      Number.isFinite(minutes) &&
      minutes > 0 &&
      row.eventSeq === seq &&
      row.status === "open" &&
      row.lastActivityAt <= at - minutes * 60 &&
      !(ignoreWaiting && row.waitingSince !== null);
    return due ? { status: "resolved", guard: stillIdle(at, minutes, ignoreWaiting, seq) } : null;
  },
  wake: (_account, row, at, seq) =>
    row.eventSeq === seq &&
    row.status === "snoozed" &&
    row.snoozedUntil !== null &&
    row.snoozedUntil <= at
      ? { status: "open", guard: stillSnoozed(at, seq), values: { lastActivityAt: at } }
      : null,
};

/** The changes, in one D1 batch; should that batch fail, each on its own (one bad row stops none). */
async function change(deps: Deps, changes: TimedChange[]): Promise<ConversationRow[]> {
  try {
    return await changeStatusOfMany(deps, changes);
  } catch (error) {
    if (changes.length === 1) {
      throw error;
    }
    deps.log.error("timed batch failed; one at a time", { error });
    const rows = [];
    for (const c of changes) {
      rows.push(...(await change(deps, [c]).catch(() => [c.row])));
    }
    return rows;
  }
}

/** Chatwoot's `auto_resolve_message`, after the note, where the account sets one. */
async function autoResolveMessage(deps: Deps, scope: MessageScope, row: ConversationRow) {
  const text = scope.account.settings.auto_resolve_message;
  if (typeof text === "string" && text.trim() !== "") {
    await createMessage(scope, row, { content: text, messageType: "template" }).catch((error) =>
      deps.log.error("auto_resolve_message not posted", { conversation: row.id, error }),
    );
  }
}

/**
 * One TIMED message: its conversations read in one query, those still due changed together
 * (modules/conversations/service.timed.ts), then the auto-resolve's message where the account
 * sets one. The tick's clock (`at`) is the clock of the whole change. Answers how many changed.
 */
export async function runTimed(env: Bindings, message: TimedMessage): Promise<number> {
  const deps = createDeps(env, { now: () => message.at });
  try {
    const seqs = new Map(message.items);
    const rows = await withAccounts(deps.db, [...seqs.keys()]);
    const plan = PLANS[message.task];
    const changes = rows.flatMap(({ account, conversation }): Planned[] => {
      const p = plan(account, conversation, message.at, seqs.get(conversation.id) ?? -1);
      return p ? [{ ...p, scope: systemScope(deps, account), row: conversation }] : [];
    });
    const after = await change(deps, changes);
    const changed = changes.flatMap((c, i) => {
      const row = after[i] as ConversationRow;
      return row === c.row ? [] : [{ ...c, row }];
    });
    if (message.task === "auto_resolve") {
      await Promise.all(changed.map((c) => autoResolveMessage(deps, c.scope, c.row)));
    }
    return changed.length;
  } finally {
    await deps.events.flush();
  }
}

/**
 * The TIMED queue consumer (conversations' timed changes, the assignment drains of
 * modules/assignment/, and the rest of an hmac_mandatory switch's closes): its messages side by side, each acked once worked; one that failed
 * is retried (whatever is still due is also found again by the next tick).
 */
export async function consumeTimed(batch: MessageBatch<TimedQueueMessage>, env: Bindings) {
  const log = createLogger({ source: "timed" });
  await Promise.all(
    batch.messages.map(async (message) => {
      try {
        const body = message.body;
        await (body.task === "drain"
          ? drainFanned(env, body)
          : body.task === "close_sessions"
            ? closeEndedSessionsLater(createDeps(env), body)
            : runTimed(env, body));
        message.ack();
      } catch (error) {
        log.error("timed message failed", { task: message.body.task, error });
        message.retry({ delaySeconds: 10 });
      }
    }),
  );
}

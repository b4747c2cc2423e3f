import type { AccountUserRow, ConversationRow } from "../../db/schema";
import type { Bindings } from "../../env";
import { createDeps } from "../../events/deps";
import type { Frame } from "../../realtime/protocol";
import { presenceFrame } from "../agents/presence";
import type { ConversationScope } from "../conversations/access";
import { feedFor } from "../live/stubs";
import { sendDrains } from "./fanout";
import { autoAssigningInboxesOf, setConnected } from "./queries";
import { assignOrQueue, drainInbox } from "./service";

/**
 * The status hook: a conversation (re)opened unassigned is assigned or queued (Chatwoot assigns
 * on a bot handoff too); one that leaves open frees its agent's slot, so the queue moves.
 */
export async function afterStatusChange(
  scope: ConversationScope,
  before: ConversationRow,
  after: ConversationRow,
) {
  if (after.status === "open") {
    await assignOrQueue(scope, after);
  } else if (before.status === "open" && before.assigneeId !== null) {
    await drainSoon(scope.deps.env, [after.inboxId], scope.deps.now());
  }
}

/**
 * The feed's presence hook: records whether the agent has a live socket; when that changed,
 * a newly connected agent takes from their inboxes' queues, and the account's listeners get a
 * `presence.update` frame (Chatwoot's event name) with the agent's status.
 */
export async function presenceChanged(
  env: Bindings,
  accountId: number,
  userId: number,
  connected: boolean,
): Promise<Frame | null> {
  const { db, now } = createDeps(env);
  const changed = await setConnected(db, accountId, userId, connected ? now() : null);
  if (!changed) {
    return null;
  }
  if (connected) {
    await drainMember(env, accountId, userId);
  }
  return presenceFrame(accountId, userId, changed.status);
}

/**
 * What others see of an agent changed by a choice (the agent's own, or an administrator's): the
 * account's feed listeners get `presence.update`, and one who became online takes from their
 * inboxes' queues, as one who connects does.
 */
export async function availabilityMoved(
  env: Bindings,
  accountId: number,
  userId: number,
  status: AccountUserRow["availability"],
): Promise<void> {
  await feedFor(env, accountId).publish({
    frame: presenceFrame(accountId, userId, status),
    inboxId: null,
  });
  if (status === "online") {
    await drainMember(env, accountId, userId);
  }
}

/** The queues of the auto-assigning inboxes the agent works in. */
async function drainMember(env: Bindings, accountId: number, userId: number) {
  const { db, now } = createDeps(env);
  const inboxes = await autoAssigningInboxesOf(db, accountId, userId);
  await drainSoon(
    env,
    inboxes.map((r) => r.inboxId),
    now(),
  );
}

/**
 * What a hook (an agent comes online or available, a slot frees) assigns itself, in the request
 * or Durable Object that triggered it: at most this many conversations, from at most this many
 * inboxes. An assignment is about 8 D1 calls and an inbox's look at its queue 2, so a hook makes
 * about 40 whatever the backlog (before: up to 100 assignments per inbox of the agent's).
 */
export const HOOK_DRAIN = 4;

/**
 * Assigns from these inboxes' queues within `budget` (conversations, and inboxes looked at);
 * the inboxes not reached, and those that looked at all they were given (they may have more
 * waiting), go on in the TIMED queue's drain messages, which send themselves on until the
 * queues are empty or nobody can take more. Answers how many were assigned here.
 */
export async function drainSoon(
  env: Bindings,
  inboxes: number[],
  now: number,
  budget = HOOK_DRAIN,
): Promise<number> {
  let left = budget;
  let assigned = 0;
  const later: number[] = [];
  for (const [i, inboxId] of inboxes.entries()) {
    if (left === 0 || i >= budget) {
      later.push(inboxId);
      continue;
    }
    const drained = await drainInbox(env, inboxId, now, left);
    if (drained.more) {
      later.push(inboxId);
    }
    left -= drained.used;
    assigned += drained.assigned;
  }
  if (later.length > 0) {
    await sendDrains(env, later, now);
  }
  return assigned;
}

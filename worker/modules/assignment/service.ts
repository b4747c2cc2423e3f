import type { AccountUserRow, ConversationRow, InboxRow } from "../../db/schema";
import type { Bindings, DrainMessage } from "../../env";
import { createDeps } from "../../events/deps";
import type { Frame } from "../../realtime/protocol";
import { findAccount } from "../accounts/queries";
import { presenceFrame } from "../agents/presence";
import type { ConversationScope } from "../conversations/access";
import { findById } from "../conversations/queries";
import { assignIf } from "../conversations/service.actions";
import { maxAssignmentLimit } from "../inboxes/presenter";
import { findInboxById } from "../inboxes/queries.public";
import { feedFor } from "../live/stubs";
import { rotatingRead } from "../schedule/rotation";
import {
  autoAssigningInboxesOf,
  dequeue,
  eligibleMembers,
  enqueue,
  inboxesWithQueue,
  queued,
  setConnected,
  stillAssignable,
  touchMember,
} from "./queries";

/** Queued conversations tried per inbox per drain; the rest wait for the next one. */
const DRAIN_LIMIT = 100;

/** The service's own scope in the conversation's account, in a unit of work of its own. */
function systemScopeOf(env: Bindings, account: ConversationScope["account"], now: () => number) {
  const deps = createDeps(env, { now });
  const scope: ConversationScope = {
    deps,
    account,
    actor: { kind: "system" },
    role: "administrator",
  };
  return scope;
}

const assignable = (row: ConversationRow | undefined) =>
  row !== undefined && row.assigneeId === null && row.status === "open";

/**
 * Chatwoot parity (AutoAssignment::AgentAssignmentService, balanced): the eligible member with
 * the fewest open conversations of the inbox, then the least recently assigned; each try is a
 * conditional update that re-checks the cap, so a member filled meanwhile is skipped. Answers
 * the assigned row, or null when nobody could take it.
 */
async function tryAssign(
  scope: ConversationScope,
  inbox: InboxRow,
  row: ConversationRow,
): Promise<ConversationRow | null> {
  const { db } = scope.deps;
  const cap = maxAssignmentLimit(inbox.autoAssignmentConfig);
  let current = row;
  for (const { userId } of await eligibleMembers(db, inbox.accountId, inbox.id, cap)) {
    const guard = stillAssignable(userId, inbox.id, cap);
    const after = await assignIf(scope, current, userId, guard, { assignmentQueuedAt: null });
    if (after !== current) {
      await touchMember(db, inbox.id, userId, scope.deps.now());
      return after;
    }
    const fresh = await findById(db, current.id);
    if (!fresh || !assignable(fresh)) {
      return null;
    }
    current = fresh;
  }
  return null;
}

/** Assigns an open unassigned conversation of an auto-assigning inbox now, or queues it. */
async function assignOrQueue(scope: ConversationScope, row: ConversationRow) {
  const { deps } = scope;
  const inbox = await findInboxById(deps.db, row.inboxId);
  if (!inbox?.enableAutoAssignment || !assignable(row)) {
    return row;
  }
  const system = systemScopeOf(deps.env, scope.account, deps.now);
  try {
    const assigned = await tryAssign(system, inbox, row);
    if (assigned) {
      return assigned;
    }
    const at = deps.now();
    await enqueue(deps.db, row.id, at);
    return { ...row, assignmentQueuedAt: row.assignmentQueuedAt ?? at };
  } finally {
    await system.deps.events.flush();
  }
}

/** The conversations hook: every new conversation of an auto-assigning inbox. */
export const assignNew = (scope: ConversationScope, row: ConversationRow) =>
  assignOrQueue(scope, row);

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
    await drainInbox(scope.deps.env, after.inboxId, scope.deps.now());
  }
}

/**
 * Assigns an inbox's queue, oldest first, until nobody eligible is left or `limit` conversations
 * were tried (the rest wait for the next drain).
 */
export async function drainInbox(
  env: Bindings,
  inboxId: number,
  now: number,
  limit = DRAIN_LIMIT,
): Promise<number> {
  const { db } = createDeps(env);
  const inbox = await findInboxById(db, inboxId);
  if (!inbox?.enableAutoAssignment) {
    return 0;
  }
  let assigned = 0;
  for (const row of await queued(db, inbox.id, limit)) {
    if (!assignable(row)) {
      await dequeue(db, row.id);
      continue;
    }
    const account = await accountOf(env, row);
    const scope = systemScopeOf(env, account, () => now);
    try {
      if (!(await tryAssign(scope, inbox, row))) {
        break;
      }
      assigned++;
    } finally {
      await scope.deps.events.flush();
    }
  }
  return assigned;
}

async function accountOf(env: Bindings, row: ConversationRow) {
  const account = await findAccount(createDeps(env).db, row.accountId);
  if (!account) {
    throw new Error("conversation without an account");
  }
  return account;
}

/**
 * Inboxes with a waiting queue the tick reads at most; the next tick goes on after the last one
 * (and wraps around), so with more waiting every inbox is sent within a few ticks.
 */
export const DRAIN_TICK_LIMIT = 1000;
/** Inboxes per TIMED message. */
export const DRAIN_INBOXES = 4;
/**
 * Queued conversations one TIMED message assigns per inbox. An assignment is about 8 D1 calls
 * (its read, the conditional update with its events, the member's mark, the events' relay), so
 * with parley-timed's max_batch_size of 5 one consumer invocation makes about 5 x 4 x 2 x 8 =
 * 320 (test/events/drain-fanout.test.ts counts them), under the 1,000 an invocation may make.
 */
export const DRAIN_PER_INBOX = 2;

/**
 * The cron's safety net (a missed slot or presence change): the tick only finds the inboxes
 * with a waiting queue (one read of a partial index) and sends them to the TIMED queue,
 * `DRAIN_INBOXES` a message; the consumer drains them (`drainFanned`). So the tick's D1 calls
 * never grow with the number of inboxes. Answers how many inboxes were sent.
 */
export async function drainQueues(
  env: Bindings,
  now: number,
  limit = DRAIN_TICK_LIMIT,
): Promise<number> {
  const { db } = createDeps(env);
  // Queues nobody can take stay put; taking turns keeps them from starving the inboxes after them.
  const inboxes = await rotatingRead(db, "assignment_drain", limit, async (after, n) =>
    (await inboxesWithQueue(db, after, n)).map((r) => r.inboxId),
  );
  const messages: { body: DrainMessage }[] = [];
  for (let i = 0; i < inboxes.length; i += DRAIN_INBOXES) {
    messages.push({
      body: { kind: "timed", task: "drain", at: now, inboxes: inboxes.slice(i, i + DRAIN_INBOXES) },
    });
  }
  // Queue sendBatch takes at most 100 messages.
  for (let i = 0; i < messages.length; i += 100) {
    await env.TIMED.sendBatch(messages.slice(i, i + 100));
  }
  return inboxes.length;
}

/**
 * One drain message of the TIMED queue: its inboxes in turn, `DRAIN_PER_INBOX` conversations
 * each; the inboxes that assigned that many may have more waiting and are sent on again at once
 * (each round assigns some, so it ends), rather than a minute later by the next tick.
 */
export async function drainFanned(env: Bindings, message: DrainMessage): Promise<number> {
  let assigned = 0;
  const more: number[] = [];
  for (const inboxId of message.inboxes) {
    const n = await drainInbox(env, inboxId, message.at, DRAIN_PER_INBOX);
    assigned += n;
    if (n === DRAIN_PER_INBOX) {
      more.push(inboxId);
    }
  }
  if (more.length > 0) {
    await env.TIMED.send({ ...message, inboxes: more });
  }
  return assigned;
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
  for (const { inboxId } of await autoAssigningInboxesOf(db, accountId, userId)) {
    await drainInbox(env, inboxId, now());
  }
}

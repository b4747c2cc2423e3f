import type { ConversationRow, InboxRow } from "../../db/schema";
import type { Bindings } from "../../env";
import { createDeps } from "../../events/deps";
import { findAccount } from "../accounts/queries";
import type { ConversationScope } from "../conversations/access";
import { findById } from "../conversations/queries";
import { assignIf } from "../conversations/service.actions";
import { maxAssignmentLimit } from "../inboxes/presenter";
import { findInboxById } from "../inboxes/queries.public";
import {
  clearQueue,
  dequeue,
  eligibleMembers,
  enqueue,
  queued,
  stillAssignable,
  touchMember,
} from "./queries";

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
export async function assignOrQueue(scope: ConversationScope, row: ConversationRow) {
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

/** What one drain of an inbox did: the rows it took off the queue, and whether more may wait. */
export interface Drained {
  assigned: number;
  /** Rows looked at: assigned, or removed because they were no longer waiting for anyone. */
  used: number;
  /** It used all it was given and nobody refused: the queue may hold more. */
  more: boolean;
}

/**
 * Assigns an inbox's queue, oldest first, until nobody eligible is left or `limit` conversations
 * were looked at (the rest wait for the next drain). Rows no longer assignable (closed or taken
 * meanwhile) leave the queue and count as looked at, so a queue of many such rows is sent on.
 */
export async function drainInbox(
  env: Bindings,
  inboxId: number,
  now: number,
  limit: number,
): Promise<Drained> {
  const { db } = createDeps(env);
  const inbox = await findInboxById(db, inboxId);
  if (!inbox?.enableAutoAssignment) {
    // Switched off since they queued: nobody will assign them, so they stop waiting (Chatwoot
    // assigns only at creation and reopen), and the tick stops sending the inbox every minute.
    if (inbox) {
      await clearQueue(db, inbox.id);
    }
    return { assigned: 0, used: 0, more: false };
  }
  const rows = await queued(db, inbox.id, limit);
  const drained: Drained = { assigned: 0, used: 0, more: false };
  for (const row of rows) {
    if (!assignable(row)) {
      await dequeue(db, row.id);
      drained.used++;
      continue;
    }
    const account = await accountOf(env, row);
    const scope = systemScopeOf(env, account, () => now);
    try {
      if (!(await tryAssign(scope, inbox, row))) {
        return drained;
      }
      drained.assigned++;
      drained.used++;
    } finally {
      await scope.deps.events.flush();
    }
  }
  drained.more = rows.length === limit;
  return drained;
}

async function accountOf(env: Bindings, row: ConversationRow) {
  const account = await findAccount(createDeps(env).db, row.accountId);
  if (!account) {
    throw new Error("conversation without an account");
  }
  return account;
}

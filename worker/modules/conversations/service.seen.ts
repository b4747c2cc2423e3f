import type { ConversationRow } from "../../db/schema";
import { commit } from "../../events/commit";
import { newestSeq } from "../messages/queries";
import type { ConversationScope } from "./access";
import { firstRow } from "./events";
import { callerUserId } from "./policy";
import {
  type ConversationValues,
  lastIncoming,
  type NewConversation,
  updateConversationRow,
} from "./queries";

/**
 * Marks the conversation seen by agents, and by its assignee when that is the caller: up to the
 * newest message stored when the update runs (its seq, read in the statement itself).
 */
export async function markSeen(scope: ConversationScope, row: ConversationRow, at: number | null) {
  const values: ConversationValues = {
    agentLastSeenAt: at,
    agentLastSeenSeq: at === null ? null : newestSeq(row.id),
  };
  const userId = callerUserId(scope.actor);
  if (userId !== null && userId === row.assigneeId) {
    values.assigneeLastSeenAt = at;
  }
  const read = at === null ? [] : [readEvent(row, "agent", at)];
  await commit(scope.deps, [updateConversationRow(scope.deps.db, row.id, values)], read, {
    conversation: (r) => firstRow<ConversationRow>(r),
  });
}

/** Live only: the room tells both sides who read the conversation, and when. */
export const readEvent = (row: ConversationRow, by: "agent" | "contact", at: number) =>
  ({
    name: "conversation.read",
    accountId: row.accountId,
    conversation: row.id,
    data: { by, at },
  }) as const;

export const markRead = (scope: ConversationScope, row: ConversationRow) =>
  markSeen(scope, row, scope.deps.now());

/**
 * Chatwoot parity (conversations#unread): seen until just before the latest incoming message,
 * so it counts as unread again; with no incoming message, nothing was seen.
 */
export async function markUnread(scope: ConversationScope, row: ConversationRow) {
  const last = await lastIncoming(scope.deps.db, row.id);
  const values: Partial<NewConversation> = {
    agentLastSeenAt: last ? last.at - 1 : null,
    agentLastSeenSeq: last ? last.seq - 1 : null,
  };
  // Chatwoot resets the assignee's mark too, whoever asks.
  values.assigneeLastSeenAt = values.agentLastSeenAt;
  await updateConversationRow(scope.deps.db, row.id, values);
}

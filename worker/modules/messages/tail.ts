import type { ConversationRow, MessageRow } from "../../db/schema";
import { applyTouch, unseenBy } from "../conversation-room/room-commit";
import { roomFor } from "../conversation-room/stub";
import type { TailEntry } from "../conversation-room/tail";
import type { ConversationScope } from "../conversations/access";
import { MESSAGE_TYPE_CODES } from "./types";

export type { TailEntry };

/**
 * Read your writes for one conversation (docs/realtime.md): an agent's post is answered at its
 * room's commit, before D1 has it, so a read of that conversation merges the room's tail (the
 * messages its log holds and D1 does not). The room is asked BEFORE the read of D1 it is merged
 * with: the log trims a message only once D1 has it, so each message is in the tail asked first
 * or in D1 read after, and D1 has the room's messages in seq order, so every message D1 lacks has
 * a seq above D1's newest. One RPC per read (a cold room wakes to read its empty log).
 */
export function readTail(
  scope: ConversationScope,
  conversation: ConversationRow,
): Promise<TailEntry[]> {
  return roomFor(scope.deps.env, scope.account.id, conversation.id).unreplicated();
}

/** The tail's messages above `newest` (D1's newest seq, read after the tail): D1 lacks them. */
export const beyond = (tail: TailEntry[], newest: number) => tail.filter((e) => e.row.seq > newest);

/** A cursor's message (by id) in the tail, for a cursor D1 does not know yet. */
export const tailSeqOf = (tail: TailEntry[], id: number) =>
  tail.find((e) => e.row.id === id)?.row.seq;

/**
 * A page of D1's rows (`limit` newest below `before`, or oldest above `after`) with the tail's
 * rows in its range: every tail row D1 lacks sorts after D1's, and D1's copy of a row wins (an
 * edit or delete waits for D1 to have the message, then changes D1's row).
 */
export function mergePage(
  rows: MessageRow[],
  tail: TailEntry[],
  cursor: { before?: number; after?: number },
  limit: number,
): MessageRow[] {
  const have = new Set(rows.map((r) => r.id));
  const extra = tail
    .map((e) => e.row)
    .filter(
      (r) =>
        !have.has(r.id) &&
        (cursor.after === undefined || r.seq > cursor.after) &&
        (cursor.before === undefined || r.seq < cursor.before),
    );
  if (extra.length === 0) {
    return rows;
  }
  const all = [...rows, ...extra].sort((a, b) => a.seq - b.seq);
  return cursor.after !== undefined ? all.slice(0, limit) : all.slice(-limit);
}

/** Incoming messages of the tail's `fresh` part the agents have not seen (unread_count). */
export const unseenIn = (conversation: ConversationRow, fresh: TailEntry[]) =>
  fresh.filter(
    (e) => e.row.messageType === MESSAGE_TYPE_CODES.incoming && unseenBy(conversation, e.row),
  ).length;

/** The conversation's clocks as the `fresh` part of the tail will move them in D1. */
export const touchedBy = (conversation: ConversationRow, fresh: TailEntry[]) =>
  fresh.reduce((row, e) => applyTouch(row, e.touch), conversation);

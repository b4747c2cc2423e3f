import type { Db } from "../../db/client";
import type { AttachmentRow, MessageRow } from "../../db/schema";
import { presentAgentBotSender } from "../agent-bots/presenter";
import { presentContactSender } from "../contacts/presenter";
import { presentUserSender } from "../users/presenter";
import { senderAndFileRows } from "./queries.senders";
import type { Sender } from "./schema";

const ids = (rows: MessageRow[], type: MessageRow["senderType"]) => [
  ...new Set(
    rows
      .filter((r) => r.senderType === type && r.senderId !== null)
      .map((r) => r.senderId as number),
  ),
];

type Extras = { senders: Map<string, Sender>; files: Map<number, AttachmentRow[]> };

/**
 * The senders (users, contacts, bots) and the attachments of many messages in one D1 round
 * trip: a presented message needs both, and each query of its own would be a round trip.
 * Each sender is shaped by its own record's presenter.
 */
export async function loadMessageExtras(
  db: Db,
  rows: MessageRow[],
  { files = true }: { files?: boolean } = {},
): Promise<Extras> {
  const found = await senderAndFileRows(db, {
    userIds: ids(rows, "User"),
    contactIds: ids(rows, "Contact"),
    botIds: ids(rows, "AgentBot"),
    messageIds: files ? rows.map((r) => r.id) : [],
  });
  const out: Extras = { senders: new Map(), files: new Map() };
  for (const u of found.users) {
    out.senders.set(`User:${u.id}`, presentUserSender(u));
  }
  for (const c of found.contacts) {
    out.senders.set(`Contact:${c.id}`, presentContactSender(c));
  }
  for (const b of found.bots) {
    out.senders.set(`AgentBot:${b.id}`, presentAgentBotSender(b));
  }
  for (const a of found.files) {
    out.files.set(a.messageId, [...(out.files.get(a.messageId) ?? []), a]);
  }
  return out;
}

/** Senders of many messages, keyed "Type:id", in one round trip. */
export async function loadSenders(db: Db, rows: MessageRow[]): Promise<Map<string, Sender>> {
  return (await loadMessageExtras(db, rows, { files: false })).senders;
}

/** One sender by kind and id (a typing user, contact or bot). */
export async function loadSender(
  db: Db,
  senderType: NonNullable<MessageRow["senderType"]>,
  senderId: number,
): Promise<Sender | null> {
  const found = await loadSenders(db, [{ senderType, senderId } as MessageRow]);
  return found.get(`${senderType}:${senderId}`) ?? null;
}

export const senderKey = (row: MessageRow) =>
  row.senderType && row.senderId !== null ? `${row.senderType}:${row.senderId}` : null;

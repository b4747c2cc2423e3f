import { inArray } from "drizzle-orm";
import type { Db } from "../../db/client";
import type { AttachmentRow, MessageRow } from "../../db/schema";
import { agentBots, attachments, contacts, users } from "../../db/schema";
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
 */
export async function loadMessageExtras(
  db: Db,
  rows: MessageRow[],
  { files = true }: { files?: boolean } = {},
): Promise<Extras> {
  const out: Extras = { senders: new Map(), files: new Map() };
  const userIds = ids(rows, "User");
  const contactIds = ids(rows, "Contact");
  const botIds = ids(rows, "AgentBot");
  const messageIds = files ? rows.map((r) => r.id) : [];
  const statements = [
    userIds.length ? db.select().from(users).where(inArray(users.id, userIds)) : null,
    contactIds.length ? db.select().from(contacts).where(inArray(contacts.id, contactIds)) : null,
    botIds.length ? db.select().from(agentBots).where(inArray(agentBots.id, botIds)) : null,
    messageIds.length
      ? db.select().from(attachments).where(inArray(attachments.messageId, messageIds))
      : null,
  ];
  const present = statements.filter((q) => q !== null);
  const [first, ...rest] = present;
  if (!first) {
    return out;
  }
  const results = await db.batch([first, ...rest]);
  let next = 0;
  const take = <T>(q: unknown): T[] => (q === null ? [] : (results[next++] as T[]));
  const [userRows, contactRows, botRows, fileRows] = [
    take<typeof users.$inferSelect>(statements[0]),
    take<typeof contacts.$inferSelect>(statements[1]),
    take<typeof agentBots.$inferSelect>(statements[2]),
    take<AttachmentRow>(statements[3]),
  ];
  for (const u of userRows) {
    out.senders.set(`User:${u.id}`, userSender(u));
  }
  for (const c of contactRows) {
    out.senders.set(`Contact:${c.id}`, contactSender(c));
  }
  for (const b of botRows) {
    out.senders.set(`AgentBot:${b.id}`, botSender(b));
  }
  for (const a of fileRows) {
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

export function userSender(u: typeof users.$inferSelect): Sender {
  const avatar = u.avatarUrl ?? "";
  return {
    id: u.id,
    name: u.name,
    available_name: u.displayName ?? u.name,
    type: "user",
    avatar_url: avatar,
    thumbnail: avatar,
  };
}

export function contactSender(c: typeof contacts.$inferSelect): Sender {
  const avatar = c.avatarUrl ?? "";
  return {
    id: c.id,
    name: c.name,
    type: "contact",
    avatar_url: avatar,
    thumbnail: avatar,
    email: c.email,
    phone_number: c.phoneNumber,
    identifier: c.identifier,
    blocked: c.blocked,
    additional_attributes: c.additionalAttributes,
    custom_attributes: c.customAttributes,
  };
}

export function botSender(b: typeof agentBots.$inferSelect): Sender {
  const avatar = b.thumbnail ?? "";
  return {
    id: b.id,
    name: b.name,
    type: "agent_bot",
    description: b.description,
    avatar_url: avatar,
    thumbnail: avatar,
  };
}

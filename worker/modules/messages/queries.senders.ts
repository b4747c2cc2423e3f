import { inArray } from "drizzle-orm";
import type { Db } from "../../db/client";
import type { AgentBotRow, AttachmentRow, ContactRow, UserRow } from "../../db/schema";
import { agentBots, attachments, contacts, users } from "../../db/schema";

/** What to load for a set of messages; an empty list costs no statement. */
export type SenderIds = {
  userIds: number[];
  contactIds: number[];
  botIds: number[];
  /** The messages whose attachments to load. */
  messageIds: number[];
};

export type SenderRows = {
  users: UserRow[];
  contacts: ContactRow[];
  bots: AgentBotRow[];
  files: AttachmentRow[];
};

/**
 * The users, contacts and bots behind many messages and their attachments, in one D1 round
 * trip (none when every list is empty).
 */
export async function senderAndFileRows(db: Db, ids: SenderIds): Promise<SenderRows> {
  const statements = [
    ids.userIds.length ? db.select().from(users).where(inArray(users.id, ids.userIds)) : null,
    ids.contactIds.length
      ? db.select().from(contacts).where(inArray(contacts.id, ids.contactIds))
      : null,
    ids.botIds.length ? db.select().from(agentBots).where(inArray(agentBots.id, ids.botIds)) : null,
    ids.messageIds.length
      ? db.select().from(attachments).where(inArray(attachments.messageId, ids.messageIds))
      : null,
  ];
  const present = statements.filter((q) => q !== null);
  const [first, ...rest] = present;
  if (!first) {
    return { users: [], contacts: [], bots: [], files: [] };
  }
  const results = await db.batch([first, ...rest]);
  let next = 0;
  const take = <T>(q: unknown): T[] => (q === null ? [] : (results[next++] as T[]));
  return {
    users: take<UserRow>(statements[0]),
    contacts: take<ContactRow>(statements[1]),
    bots: take<AgentBotRow>(statements[2]),
    files: take<AttachmentRow>(statements[3]),
  };
}

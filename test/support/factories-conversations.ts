import { eq, sql } from "drizzle-orm";
import * as t from "../../worker/db/schema";
import { secureToken } from "../../worker/lib/ids";
import { db, unique } from "./factories";

export type ConversationRow = typeof t.conversations.$inferSelect;
export type ContactRow = typeof t.contacts.$inferSelect;

export async function createContact(
  accountId: number,
  values: Partial<typeof t.contacts.$inferInsert> = {},
): Promise<ContactRow> {
  const name = values.name ?? unique("Contact");
  const [contact] = await db()
    .insert(t.contacts)
    .values({ accountId, name, email: `${unique("c")}@example.com`.toLowerCase(), ...values })
    .returning();
  if (!contact) {
    throw new Error("contact not created");
  }
  return contact;
}

export async function createContactInbox(
  contactId: number,
  inboxId: number,
  values: Partial<typeof t.contactInboxes.$inferInsert> = {},
) {
  const [row] = await db()
    .insert(t.contactInboxes)
    .values({
      contactId,
      inboxId,
      sourceId: crypto.randomUUID(),
      pubsubToken: secureToken(),
      ...values,
    })
    .returning();
  if (!row) {
    throw new Error("contact inbox not created");
  }
  return row;
}

type ConversationValues = Partial<typeof t.conversations.$inferInsert> & {
  /** Defaults to a fresh contact of the account. */
  contactId?: number;
  labels?: string[];
};

/** A conversation straight through drizzle (display_id from the same subselect the API uses). */
export async function createConversation(
  accountId: number,
  inboxId: number,
  values: ConversationValues = {},
): Promise<ConversationRow> {
  const { labels, ...rest } = values;
  const contactId = rest.contactId ?? (await createContact(accountId)).id;
  const contactInbox = await createContactInbox(contactId, inboxId);
  const now = Math.floor(Date.now() / 1000);
  const [row] = await db()
    .insert(t.conversations)
    .values({
      uuid: crypto.randomUUID(),
      lastActivityAt: now,
      contactInboxId: contactInbox.id,
      displayId: sql`(SELECT COALESCE(MAX(display_id), 0) + 1 FROM conversations WHERE account_id = ${accountId})`,
      ...rest,
      accountId,
      inboxId,
      contactId,
    })
    .returning();
  if (!row) {
    throw new Error("conversation not created");
  }
  if (labels && labels.length > 0) {
    await db()
      .insert(t.conversationLabels)
      .values(labels.map((title) => ({ conversationId: row.id, title })));
  }
  return row;
}

/** Message types as stored: incoming 0, outgoing 1, activity 2, template 3. */
export const MT = { incoming: 0, outgoing: 1, activity: 2, template: 3 } as const;

/** A message row inserted directly (the FTS triggers index it), with the next seq. */
export async function insertMessage(
  conversation: ConversationRow,
  values: Partial<typeof t.messages.$inferInsert> = {},
) {
  const [row] = await db()
    .insert(t.messages)
    .values({
      accountId: conversation.accountId,
      inboxId: conversation.inboxId,
      conversationId: conversation.id,
      content: unique("message"),
      messageType: MT.incoming,
      seq: sql`(SELECT COALESCE(MAX(seq), 0) + 1 FROM messages WHERE conversation_id = ${conversation.id})`,
      ...values,
    })
    .returning();
  if (!row) {
    throw new Error("message not created");
  }
  return row;
}

export const conversationRow = (id: number) =>
  db().select().from(t.conversations).where(eq(t.conversations.id, id)).get();

export const contactInboxesOf = (contactId: number) =>
  db().select().from(t.contactInboxes).where(eq(t.contactInboxes.contactId, contactId)).all();

export const conversationsOfAccount = (accountId: number) =>
  db().select().from(t.conversations).where(eq(t.conversations.accountId, accountId)).all();

export async function defineConversationAttribute(
  accountId: number,
  key: string,
  type: t.AttributeDisplayType,
  values: Partial<typeof t.customAttributeDefinitions.$inferInsert> = {},
) {
  await db()
    .insert(t.customAttributeDefinitions)
    .values({
      accountId,
      attributeKey: key,
      attributeDisplayName: key,
      attributeDisplayType: type,
      attributeModel: "conversation_attribute",
      ...values,
    });
}

/** A fresh contact with an open conversation in `inboxId`, and the contact_inbox between them. */
export async function createConversationIn(accountId: number, inboxId: number) {
  const contact = await createContact(accountId);
  const conversation = await createConversation(accountId, inboxId, { contactId: contact.id });
  const [contactInbox] = await contactInboxesOf(contact.id);
  if (!contactInbox) {
    throw new Error("contact inbox not created");
  }
  return { contact, contactInbox, conversation };
}

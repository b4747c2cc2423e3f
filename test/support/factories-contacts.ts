import { eq } from "drizzle-orm";
import * as t from "../../worker/db/schema";
import { secureToken } from "../../worker/lib/ids";
import { db, unique } from "./factories";

/** A contact with a unique email unless `email` is given (null makes an anonymous visitor). */
export async function createContact(
  accountId: number,
  values: Partial<typeof t.contacts.$inferInsert> = {},
) {
  const [contact] = await db()
    .insert(t.contacts)
    .values({
      accountId,
      name: unique("Contact"),
      email: `${unique("contact").toLowerCase()}@example.com`,
      ...values,
    })
    .returning();
  if (!contact) {
    throw new Error("contact not created");
  }
  return contact;
}

export async function createDefinition(
  accountId: number,
  values: Partial<typeof t.customAttributeDefinitions.$inferInsert> = {},
) {
  const [definition] = await db()
    .insert(t.customAttributeDefinitions)
    .values({
      accountId,
      attributeDisplayName: "Attribute",
      attributeKey: unique("attr").replace(/-/g, "_"),
      attributeDisplayType: "text",
      attributeModel: "contact_attribute",
      ...values,
    })
    .returning();
  if (!definition) {
    throw new Error("definition not created");
  }
  return definition;
}

export async function tagContact(contactId: number, titles: string[]) {
  await db()
    .insert(t.contactLabels)
    .values(titles.map((title) => ({ contactId, title })));
}

export async function addContactInbox(contactId: number, inboxId: number, sourceId?: string) {
  const [row] = await db()
    .insert(t.contactInboxes)
    .values({
      contactId,
      inboxId,
      sourceId: sourceId ?? crypto.randomUUID(),
      pubsubToken: secureToken(),
    })
    .returning();
  if (!row) {
    throw new Error("contact inbox not created");
  }
  return row;
}

export const findContactRow = (id: number) =>
  db().select().from(t.contacts).where(eq(t.contacts.id, id)).get();

export const contactInboxRows = (contactId: number) =>
  db().select().from(t.contactInboxes).where(eq(t.contactInboxes.contactId, contactId)).all();

export const contactLabelRows = (contactId: number) =>
  db().select().from(t.contactLabels).where(eq(t.contactLabels.contactId, contactId)).all();

import { and, asc, count, desc, eq, inArray, ne, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import type { ContactRow, InboxRow } from "../../db/schema";
import { contactInboxes, contactLabels, contacts, inboxes, readableJson } from "../../db/schema";
import type { SortKey } from "./schema";

export type NewContact = typeof contacts.$inferInsert;
export type NewContactInbox = typeof contactInboxes.$inferInsert;

/** A contact_inbox with the inbox fields the contact record shows. */
export type ContactInboxWithInbox = {
  contactId: number;
  sourceId: string;
  inbox: Pick<InboxRow, "id" | "avatarUrl" | "name" | "channelType">;
};

export type ContactSort = { key: SortKey; descending: boolean };

/** Extra conditions of a page: a search, labels or a compiled filter. */
export type ContactWhere = SQL | undefined;

/**
 * Chatwoot's "resolved" contacts: the ones with an email, a phone number or an identifier.
 * The partial indexes of migrations/0008 repeat this test; SQLite uses them only while it matches.
 */
const resolved = sql`(${contacts.email} <> '' OR ${contacts.phoneNumber} <> '' OR ${contacts.identifier} <> '')`;

const SORT_COLUMNS = {
  name: sql`${contacts.name} COLLATE NOCASE`,
  email: contacts.email,
  phone_number: contacts.phoneNumber,
  last_activity_at: contacts.lastActivityAt,
  created_at: contacts.createdAt,
} as const;

/** Each key has an (account_id, key) index, so a page reads only its own rows. */
function orderBy(sort: ContactSort) {
  const column = SORT_COLUMNS[sort.key];
  return sort.descending
    ? [sql`${column} DESC NULLS LAST`, desc(contacts.id)]
    : [sql`${column} ASC NULLS LAST`, asc(contacts.id)];
}

const taggedWithAny = (titles: string[]) =>
  sql`EXISTS (SELECT 1 FROM ${contactLabels} WHERE ${contactLabels.contactId} = ${contacts.id} AND ${contactLabels.title} IN (${sql.join(
    titles.map((t) => sql`${t}`),
    sql`, `,
  )}))`;

/** Chatwoot's search: name, email or phone contain `q` (case-insensitive), or identifier is `q`. */
function searchCondition(q: string): SQL {
  const folded = q.replace(/[A-Z]/g, (c) => c.toLowerCase());
  return sql`(instr(lower(${contacts.name}), ${folded}) > 0 OR instr(lower(${contacts.email}), ${folded}) > 0 OR instr(${contacts.phoneNumber}, ${q}) > 0 OR ${contacts.identifier} = ${q})`;
}

/** The list's optional conditions: a search term and labels (any of them). */
export const contactConditions = (opts: { search?: string; labels?: string[] }) =>
  and(
    opts.search ? searchCondition(opts.search) : undefined,
    opts.labels?.length ? taggedWithAny(opts.labels) : undefined,
  );

/**
 * The resolved contacts count without extra conditions, split so the large part is an
 * index-only count over (account_id, email).
 */
const countAllResolved = (db: Db, accountId: number) =>
  db
    .select({
      total: sql<number>`(SELECT count(*) FROM ${contacts} WHERE ${contacts.accountId} = ${accountId} AND ${contacts.email} > '') + (SELECT count(*) FROM ${contacts} WHERE ${contacts.accountId} = ${accountId} AND (${contacts.email} IS NULL OR ${contacts.email} = '') AND (${contacts.phoneNumber} <> '' OR ${contacts.identifier} <> ''))`,
    })
    .from(sql`(SELECT 1)`);

/** The two statements behind a page: its rows and the count of every match. */
export function contactPageQueries(
  db: Db,
  accountId: number,
  where: ContactWhere,
  sort: ContactSort,
  limit: number,
  offset: number,
) {
  const scope = and(eq(contacts.accountId, accountId), resolved, where);
  const page = db
    .select()
    .from(contacts)
    .where(scope)
    .orderBy(...orderBy(sort))
    .limit(limit)
    .offset(offset);
  const total = where
    ? db.select({ total: count() }).from(contacts).where(scope)
    : countAllResolved(db, accountId);
  return { page, total };
}

/** One page of resolved contacts and the total, in one round trip. */
export async function contactPage(
  db: Db,
  accountId: number,
  where: ContactWhere,
  sort: ContactSort,
  limit: number,
  offset: number,
): Promise<{ rows: ContactRow[]; total: number }> {
  const { page, total } = contactPageQueries(db, accountId, where, sort, limit, offset);
  const [rows, counted] = await db.batch([page, total]);
  return { rows, total: counted[0]?.total ?? 0 };
}

/** The contact_inboxes of many contacts in one query. */
export const contactInboxesOf = (db: Db, contactIds: number[]): Promise<ContactInboxWithInbox[]> =>
  contactIds.length === 0
    ? Promise.resolve([])
    : db
        .select({
          contactId: contactInboxes.contactId,
          sourceId: contactInboxes.sourceId,
          inbox: {
            id: inboxes.id,
            avatarUrl: inboxes.avatarUrl,
            name: inboxes.name,
            channelType: inboxes.channelType,
          },
        })
        .from(contactInboxes)
        .innerJoin(inboxes, eq(inboxes.id, contactInboxes.inboxId))
        .where(inArray(contactInboxes.contactId, contactIds))
        .orderBy(asc(contactInboxes.id))
        .all();

export const findContact = (db: Db, accountId: number, id: number) =>
  db
    .select()
    .from(contacts)
    .where(and(eq(contacts.accountId, accountId), eq(contacts.id, id)))
    .get();

/** Another contact of the account holding `value` in a unique column. */
export const findContactBy = (
  db: Db,
  accountId: number,
  column: "email" | "identifier",
  value: string,
  exceptId = 0,
) =>
  db
    .select({ id: contacts.id })
    .from(contacts)
    .where(
      and(
        eq(contacts.accountId, accountId),
        eq(column === "email" ? contacts.email : contacts.identifier, value),
        ne(contacts.id, exceptId),
      ),
    )
    .get();

export const findContactInboxBySource = (db: Db, inboxId: number, sourceId: string) =>
  db
    .select({ id: contactInboxes.id })
    .from(contactInboxes)
    .where(and(eq(contactInboxes.inboxId, inboxId), eq(contactInboxes.sourceId, sourceId)))
    .get();

/**
 * The statements inserting a contact and its contact_inbox, for one batch; the contact_inbox
 * takes the batch's last_insert_rowid(), which is the contact.
 */
export const insertContactWithInbox = (
  db: Db,
  values: NewContact,
  inbox: Omit<NewContactInbox, "contactId">,
) =>
  [
    db.insert(contacts).values(values).returning(),
    db.insert(contactInboxes).values({ ...inbox, contactId: sql`last_insert_rowid()` }),
  ] as const;

/** The contact behind a contact_inbox, as SQL for later statements of the batch creating it. */
export const contactIdBySource = (db: Db, inboxId: number, sourceId: string) =>
  sql`(${db
    .select({ id: contactInboxes.contactId })
    .from(contactInboxes)
    .where(and(eq(contactInboxes.inboxId, inboxId), eq(contactInboxes.sourceId, sourceId)))})`;

export const insertContactInbox = (db: Db, values: NewContactInbox) =>
  db.insert(contactInboxes).values(values).returning();

/** JSON patches merge into the stored objects in SQL, so concurrent updates keep each other's keys. */
export const updateContact = (
  db: Db,
  accountId: number,
  id: number,
  values: Partial<NewContact>,
  merge: { custom?: Record<string, unknown>; additional?: Record<string, unknown> },
) =>
  db
    .update(contacts)
    .set({
      ...values,
      ...(merge.custom && {
        customAttributes: sql`json_patch(${readableJson(contacts.customAttributes)}, ${JSON.stringify(merge.custom)})`,
      }),
      ...(merge.additional && {
        additionalAttributes: sql`json_patch(${readableJson(contacts.additionalAttributes)}, ${JSON.stringify(merge.additional)})`,
      }),
    })
    .where(and(eq(contacts.accountId, accountId), eq(contacts.id, id)))
    .returning();

/** Its contact_inboxes, labels and conversations go with it (foreign keys cascade). */
export const deleteContact = (db: Db, accountId: number, id: number) =>
  db.delete(contacts).where(and(eq(contacts.accountId, accountId), eq(contacts.id, id)));

export async function contactLabelTitles(db: Db, contactId: number): Promise<string[]> {
  const rows = await db
    .select({ title: contactLabels.title })
    .from(contactLabels)
    .where(eq(contactLabels.contactId, contactId))
    .orderBy(asc(contactLabels.title))
    .all();
  return rows.map((r) => r.title);
}

/** Replaces the set in one batch (two parameters per row, so rows go in slices under D1's 100). */
export async function replaceContactLabels(db: Db, contactId: number, titles: string[]) {
  const inserts = [];
  for (let i = 0; i < titles.length; i += 45) {
    const slice = titles.slice(i, i + 45).map((title) => ({ contactId, title }));
    inserts.push(db.insert(contactLabels).values(slice).onConflictDoNothing());
  }
  await db.batch([
    db.delete(contactLabels).where(eq(contactLabels.contactId, contactId)),
    ...inserts,
  ]);
}

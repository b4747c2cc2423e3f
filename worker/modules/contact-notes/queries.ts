import { and, desc, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { accountUsers, contactNotes, users } from "../../db/schema";

export type NewContactNote = typeof contactNotes.$inferInsert;

/** A note with its author as a member of the note's account (both null once gone). */
const noteColumns = { note: contactNotes, user: users, membership: accountUsers };

const withAuthor = (db: Db) =>
  db
    .select(noteColumns)
    .from(contactNotes)
    .leftJoin(users, eq(users.id, contactNotes.userId))
    .leftJoin(
      accountUsers,
      and(
        eq(accountUsers.userId, contactNotes.userId),
        eq(accountUsers.accountId, contactNotes.accountId),
      ),
    );

/** Chatwoot parity (notes.latest): newest first. */
export const listNotes = (db: Db, accountId: number, contactId: number) =>
  withAuthor(db)
    .where(and(eq(contactNotes.accountId, accountId), eq(contactNotes.contactId, contactId)))
    .orderBy(desc(contactNotes.createdAt), desc(contactNotes.id))
    .all();

export const findNote = (db: Db, accountId: number, contactId: number, id: number) =>
  withAuthor(db)
    .where(
      and(
        eq(contactNotes.accountId, accountId),
        eq(contactNotes.contactId, contactId),
        eq(contactNotes.id, id),
      ),
    )
    .get();

export const insertNote = (db: Db, values: NewContactNote) =>
  db.insert(contactNotes).values(values).returning({ id: contactNotes.id });

export const updateNote = (
  db: Db,
  accountId: number,
  id: number,
  values: Partial<NewContactNote>,
) =>
  db
    .update(contactNotes)
    .set(values)
    .where(and(eq(contactNotes.accountId, accountId), eq(contactNotes.id, id)));

export const deleteNote = (db: Db, accountId: number, id: number) =>
  db
    .delete(contactNotes)
    .where(and(eq(contactNotes.accountId, accountId), eq(contactNotes.id, id)));

export type NoteWithAuthor = NonNullable<Awaited<ReturnType<typeof findNote>>>;

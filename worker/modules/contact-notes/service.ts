import type { Deps } from "../../events/deps";
import { ApiError } from "../../lib/errors";
import { loadContact } from "../contacts/service";
import { deleteNote, findNote, insertNote, type NoteWithAuthor, updateNote } from "./queries";

/** The caller of a notes route: its account, its user (the author) and the contact's id. */
export type NoteScope = { deps: Deps; accountId: number; userId: number | null; contactId: number };

/** The contact must be the account's (404 otherwise), as every notes route starts. */
export const checkContact = (s: NoteScope) => loadContact(s.deps, s.accountId, s.contactId);

export async function loadNote(s: NoteScope, id: number): Promise<NoteWithAuthor> {
  const row = await findNote(s.deps.db, s.accountId, s.contactId, id);
  if (!row) {
    throw new ApiError("not_found");
  }
  return row;
}

export async function createNote(s: NoteScope, content: string): Promise<NoteWithAuthor> {
  await checkContact(s);
  const [row] = await insertNote(s.deps.db, {
    accountId: s.accountId,
    contactId: s.contactId,
    userId: s.userId,
    content,
  });
  if (!row) {
    throw new ApiError("internal_error");
  }
  return loadNote(s, row.id);
}

export async function changeNote(s: NoteScope, id: number, content: string) {
  const current = await loadNote(s, id);
  await updateNote(s.deps.db, s.accountId, current.note.id, { content, updatedAt: s.deps.now() });
  return loadNote(s, id);
}

export async function removeNote(s: NoteScope, id: number) {
  const current = await loadNote(s, id);
  await deleteNote(s.deps.db, s.accountId, current.note.id);
}

import type { z } from "@hono/zod-openapi";
import { presentAgent } from "../agents/presenter";
import type { NoteWithAuthor } from "./queries";
import type { ContactNoteSchema } from "./schema";

export function presentContactNote({
  note,
  user,
  membership,
}: NoteWithAuthor): z.infer<typeof ContactNoteSchema> {
  return {
    id: note.id,
    content: note.content,
    account_id: note.accountId,
    contact_id: note.contactId,
    ...(user && membership ? { user: presentAgent({ user, membership }) } : {}),
    created_at: note.createdAt,
    updated_at: note.updatedAt,
  };
}

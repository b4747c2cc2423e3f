import { z } from "@hono/zod-openapi";
import { accountParams, IdParam } from "../../http/schemas/ids";
import { AgentSchema } from "../agents/schema";

const idParam = (name: string) =>
  IdParam.openapi({ param: { name, in: "path" }, type: "integer", example: "1" });

export const ContactNotesParams = accountParams({ contact_id: idParam("contact_id") });
export const ContactNoteParams = accountParams({
  contact_id: idParam("contact_id"),
  id: idParam("id"),
});

export const MAX_NOTE_CONTENT = 20_000;

/** Chatwoot's note partial: its author as an agent (absent once the author is gone). */
export const ContactNoteSchema = z
  .object({
    id: z.number().int(),
    content: z.string().openapi({ example: "Prefers email; VIP since 2021" }),
    account_id: z.number().int(),
    contact_id: z.number().int(),
    user: AgentSchema.optional(),
    created_at: z.number().int(),
    updated_at: z.number().int(),
  })
  .openapi("ContactNote");

export const ContactNoteListSchema = z.array(ContactNoteSchema).openapi("ContactNoteList");

export const ContactNoteBody = z
  .object({
    content: z
      .string()
      .min(1, { abort: true })
      .max(MAX_NOTE_CONTENT)
      .refine((s) => s.trim() !== "", "can't be blank")
      .openapi({ example: "Prefers email; VIP since 2021" }),
  })
  .openapi("ContactNoteWrite");

import { z } from "@hono/zod-openapi";
import { AgentSchema } from "../agents/schema";

/** Chatwoot's swagger types inbox_id as integer in POST and string in PATCH (E8): take both. */
const numericId = z
  .union([
    z.number().int().positive(),
    z
      .string()
      .trim()
      .regex(/^\d{1,15}$/, "must be an id"),
  ])
  .transform(Number)
  .openapi({ type: "integer", example: 1 });

export const InboxMembersBodySchema = z
  .object({
    inbox_id: numericId,
    user_ids: z
      .array(numericId)
      .max(1000)
      .openapi({ type: "array", items: { type: "integer" }, example: [1, 2] }),
  })
  .openapi("InboxMembersChange");

export const InboxMembersSchema = z
  .object({ payload: z.array(AgentSchema) })
  .openapi("InboxMembers", { description: "Every agent of the inbox after the call." });

export type InboxMembersBody = z.infer<typeof InboxMembersBodySchema>;

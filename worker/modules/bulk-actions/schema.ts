import { z } from "@hono/zod-openapi";
import { CONVERSATION_STATUSES } from "../../db/schema";
import { BodyId, LabelTitle, UnixSeconds } from "../conversations/schema";

/** Records one call may name: as many as a few pages of the dashboard's lists. */
export const MAX_BULK_IDS = 100;

/** `0` and null both clear a reference (the dashboard sends 0 to remove the team). */
const clearableId = z.union([
  BodyId,
  z.union([z.literal(0), z.literal("0"), z.null()]).transform(() => null),
]);

const labelList = z.array(LabelTitle).max(50);

/** Chatwoot camelizes `type`: "conversation" and "Conversation" are the same. */
const RecordType = z.preprocess(
  (v) => (typeof v === "string" ? v.charAt(0).toUpperCase() + v.slice(1) : v),
  z.enum(["Conversation", "Contact"]).openapi({ example: "Conversation" }),
);

export const BulkActionSchema = z
  .object({
    type: RecordType,
    ids: z
      .array(BodyId)
      .min(1)
      .max(MAX_BULK_IDS)
      .openapi({
        description: "Conversation display ids, or contact ids",
        example: [12, 13],
      }),
    fields: z
      .object({
        status: z.enum(CONVERSATION_STATUSES).nullable().optional(),
        assignee_id: clearableId.optional(),
        team_id: clearableId.optional(),
      })
      .optional()
      .openapi({ description: "Conversations: what to set (null or 0 unassigns)" }),
    snoozed_until: UnixSeconds.nullable().optional().openapi({
      description: "Conversations snoozed by `fields.status`: until when",
    }),
    labels: z
      .object({ add: labelList.optional(), remove: labelList.optional() })
      .optional()
      .openapi({ description: "Labels to add and remove (contacts: add only)" }),
    action_name: z
      .enum(["delete"])
      .optional()
      .openapi({ description: "Contacts: `delete` removes them (administrators)" }),
  })
  .openapi("BulkAction");

export type BulkAction = z.infer<typeof BulkActionSchema>;

export const BulkResultSchema = z
  .object({
    payload: z.array(
      z.object({
        id: z.number().int(),
        status: z.enum(["updated", "not_found"]).openapi({
          description: "not_found: no record of this account the caller may see",
        }),
        errors: z.array(z.string()).openapi({
          description: "Changes refused for this record (the others were made)",
        }),
      }),
    ),
  })
  .openapi("BulkActionResult");

export type BulkResult = z.infer<typeof BulkResultSchema>["payload"][number];

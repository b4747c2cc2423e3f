import { z } from "@hono/zod-openapi";
import { CONVERSATION_PRIORITIES, CONVERSATION_STATUSES } from "../../db/schema";
import { JsonObjectSchema } from "../../http/schemas/bounded-json";
import { unwrapped } from "../../http/schemas/envelopes";
import { AgentSchema } from "../agents/schema";
import { TeamSchema } from "../teams/schema";
import { BodyId, LabelTitle, UnixSeconds } from "./schema";

const jsonObject = JsonObjectSchema;
const priority = z.enum(CONVERSATION_PRIORITIES).nullable().openapi({ example: "high" });

/** `0` and null both clear a reference (Chatwoot's assignments accept either). */
const clearableId = z.union([
  BodyId,
  z.union([z.literal(0), z.literal("0"), z.null()]).transform(() => null),
]);

export const ConversationCreateSchema = unwrapped(
  "conversation",
  z
    .object({
      inbox_id: BodyId.optional(),
      contact_id: BodyId.optional(),
      source_id: z.string().trim().min(1).max(255).optional().openapi({
        description: "An existing contact_inbox source_id, or a new one to create",
      }),
      status: z.enum(CONVERSATION_STATUSES).optional(),
      assignee_id: BodyId.nullable().optional(),
      team_id: BodyId.nullable().optional(),
      additional_attributes: jsonObject.optional(),
      custom_attributes: jsonObject.optional(),
      snoozed_until: UnixSeconds.nullable().optional(),
      message: z
        .object({
          content: z
            .string()
            .max(150_000)
            .refine((v) => v.trim() !== "", "can't be blank"),
        })
        .optional()
        .openapi({ description: "An outgoing first message from the caller" }),
    })
    .superRefine((body, ctx) => {
      if (body.inbox_id === undefined && body.source_id === undefined) {
        ctx.addIssue({ code: "custom", path: ["inbox_id"], message: "is required" });
      }
      if (body.inbox_id !== undefined && body.contact_id === undefined) {
        ctx.addIssue({ code: "custom", path: ["contact_id"], message: "is required" });
      }
    })
    .openapi("ConversationCreate"),
);

export type ConversationCreate = z.infer<typeof ConversationCreateSchema>;

export const ConversationUpdateSchema = unwrapped(
  "conversation",
  z
    .object({
      priority: priority.optional(),
      custom_attributes: jsonObject.optional().openapi({ description: "Merged into the current" }),
      additional_attributes: jsonObject
        .optional()
        .openapi({ description: "Merged into the current" }),
    })
    .openapi("ConversationUpdate"),
);

export type ConversationUpdate = z.infer<typeof ConversationUpdateSchema>;

export const ToggleStatusSchema = z
  .object({
    status: z.enum(CONVERSATION_STATUSES).optional().openapi({
      description: "Omitted: open ↔ resolved, pending and snoozed → open",
    }),
    snoozed_until: UnixSeconds.nullable().optional(),
  })
  .openapi("ToggleStatus");

export const ToggleStatusResponseSchema = z
  .object({
    meta: z.object({}),
    payload: z.object({
      success: z.boolean(),
      conversation_id: z.number().int(),
      current_status: z.enum(CONVERSATION_STATUSES),
      snoozed_until: z.number().int().nullable(),
    }),
  })
  .openapi("ToggleStatusResult");

export const TogglePrioritySchema = z
  .object({ priority: priority.optional() })
  .openapi("TogglePriority");

export const AssignmentSchema = z
  .object({ assignee_id: clearableId.optional(), team_id: clearableId.optional() })
  .openapi("Assignment");

export const AssignmentResponseSchema = z
  .union([AgentSchema, TeamSchema])
  .nullable()
  .openapi("AssignmentResult");

export const LabelsBodySchema = z
  .object({ labels: z.array(LabelTitle).max(100) })
  .openapi("ConversationLabelsBody");

export const LabelsResponseSchema = z
  .object({ payload: z.array(z.string()) })
  .openapi("ConversationLabels");

export const CustomAttributesSchema = z
  .object({ custom_attributes: jsonObject })
  .openapi("ConversationCustomAttributes");

import { z } from "@hono/zod-openapi";
import { accountParams, IdParam } from "../../http/schemas/ids";
import { AgentSchema } from "../agents/schema";
import { ActionSchema } from "../automation-rules/schema";

export const MacroParams = accountParams({
  id: IdParam.openapi({ param: { name: "id", in: "path" }, type: "integer", example: "1" }),
});

export const MACRO_VISIBILITIES = ["personal", "global"] as const;

/** Macros one account may hold (Chatwoot sets none; every list answers them all). */
export const MAX_MACROS_PER_ACCOUNT = 500;

/** Conversations one execute call may name: Chatwoot's conversation list page. */
export const MAX_EXECUTE_CONVERSATIONS = 25;

const fields = {
  name: z.string().trim().min(1).max(255).openapi({ example: "Close as billing" }),
  visibility: z.enum(MACRO_VISIBILITIES).openapi({
    description: "global: every member's (administrators only); personal: its creator's only",
    example: "global",
  }),
  actions: z
    .array(ActionSchema)
    .min(1)
    .max(25)
    .openapi({
      example: [
        { action_name: "add_label", action_params: ["billing"] },
        { action_name: "resolve_conversation", action_params: [] },
      ],
    }),
};

export const MacroCreateSchema = z
  .object({ ...fields, visibility: fields.visibility.optional() })
  .openapi("MacroCreate");

export const MacroUpdateSchema = z
  .object({
    name: fields.name.optional(),
    visibility: fields.visibility.optional(),
    actions: fields.actions.optional(),
  })
  .openapi("MacroUpdate");

export type MacroCreate = z.infer<typeof MacroCreateSchema>;
export type MacroUpdate = z.infer<typeof MacroUpdateSchema>;

export const MacroSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    visibility: z.enum(MACRO_VISIBILITIES),
    created_by: AgentSchema.optional().openapi({ description: "absent once its user left" }),
    updated_by: AgentSchema.optional(),
    account_id: z.number().int(),
    actions: z.array(ActionSchema),
  })
  .openapi("Macro");

export const MacroEnvelope = z.object({ payload: MacroSchema }).openapi("MacroEnvelope");
export const MacroListSchema = z.object({ payload: z.array(MacroSchema) }).openapi("MacroList");

export const MacroExecuteSchema = z
  .object({
    conversation_ids: z
      .array(z.number().int().positive().max(Number.MAX_SAFE_INTEGER))
      .min(1)
      .max(MAX_EXECUTE_CONVERSATIONS)
      .openapi({ description: "Conversation display ids", example: [12, 13, 14] }),
  })
  .openapi("MacroExecute");

export const MacroExecutionSchema = z
  .object({
    payload: z.array(
      z.object({
        conversation_id: z.number().int(),
        status: z.enum(["executed", "not_found"]).openapi({
          description: "not_found: no conversation of this account the caller may see",
        }),
        failed_actions: z
          .array(z.string())
          .openapi({ description: "Actions that could not be performed (the others were)" }),
      }),
    ),
  })
  .openapi("MacroExecution");

import { z } from "@hono/zod-openapi";
import { checkJsonBounds } from "../../http/schemas/bounded-json";
import { accountParams, IdParam } from "../../http/schemas/ids";
import { RULE_EVENTS } from "./fields";

export const RuleParams = accountParams({
  id: IdParam.openapi({ param: { name: "id", in: "path" }, type: "integer", example: "1" }),
});

const Scalar = z.union([z.string(), z.number(), z.boolean()]);

const Change = z
  .object({ from: z.array(Scalar.nullable()), to: z.array(Scalar.nullable()) })
  .openapi("AutomationAttributeChange", {
    description: "attribute_changed: from one of `from` to one of `to`",
  });

export const ConditionSchema = z
  .object({
    attribute_key: z.string().min(1).max(255).openapi({ example: "content" }),
    filter_operator: z.string().min(1).max(64).openapi({ example: "contains" }),
    values: z
      .union([z.array(z.union([Scalar, Change])).max(100), Change])
      .superRefine(checkJsonBounds)
      .default([])
      .openapi({ example: ["help"] }),
    query_operator: z
      .string()
      .max(8)
      .nullable()
      .optional()
      .openapi({ description: "and / or, joining this condition to the next; none on the last" }),
    custom_attribute_type: z
      .string()
      .max(64)
      .nullable()
      .optional()
      .openapi({ description: "conversation_attribute or contact_attribute (a hint)" }),
  })
  .openapi("AutomationCondition");

export const ActionSchema = z
  .object({
    action_name: z.string().min(1).max(64).openapi({ example: "add_label" }),
    action_params: z
      .array(z.unknown())
      .max(100)
      .superRefine(checkJsonBounds)
      .default([])
      .openapi({ example: ["support"] }),
  })
  .openapi("AutomationAction");

export type RuleConditionInput = z.infer<typeof ConditionSchema>;
export type RuleActionInput = z.infer<typeof ActionSchema>;

const fields = {
  name: z.string().trim().min(1).max(255).openapi({ example: "Label billing questions" }),
  description: z.string().max(10_000).nullable().optional(),
  event_name: z.enum(RULE_EVENTS).openapi({ example: "message_created" }),
  active: z.boolean().optional(),
  conditions: z.array(ConditionSchema).min(1).max(50),
  actions: z.array(ActionSchema).min(1).max(50),
};

export const RuleCreateSchema = z.object(fields).openapi("AutomationRuleCreate");

export const RuleUpdateSchema = z
  .object({
    name: fields.name.optional(),
    description: fields.description,
    event_name: fields.event_name.optional(),
    active: fields.active,
    conditions: fields.conditions.optional(),
    actions: fields.actions.optional(),
  })
  .openapi("AutomationRuleUpdate");

export type RuleCreate = z.infer<typeof RuleCreateSchema>;
export type RuleUpdate = z.infer<typeof RuleUpdateSchema>;

export const RuleSchema = z
  .object({
    id: z.number().int(),
    account_id: z.number().int(),
    name: z.string(),
    description: z.string().nullable(),
    event_name: z.string().openapi({ example: "message_created" }),
    conditions: z.array(ConditionSchema),
    actions: z.array(ActionSchema),
    created_on: z.number().int().openapi({ description: "Unix seconds", example: 1650555440 }),
    active: z.boolean(),
  })
  .openapi("AutomationRule");

export const RuleEnvelope = z.object({ payload: RuleSchema }).openapi("AutomationRuleEnvelope");

export const RuleListSchema = z
  .object({
    meta: z.object({ count: z.number().int(), current_page: z.number().int() }),
    payload: z.array(RuleSchema),
  })
  .openapi("AutomationRuleList");

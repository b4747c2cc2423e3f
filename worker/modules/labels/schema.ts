import { z } from "@hono/zod-openapi";
import { accountParams, IdParam } from "../../http/schemas/ids";

export const LabelParams = accountParams({
  id: IdParam.openapi({ param: { name: "id", in: "path" }, type: "integer", example: "1" }),
});

export const LabelSchema = z
  .object({
    id: z.number().int(),
    title: z.string().openapi({ example: "billing" }),
    description: z.string().nullable(),
    color: z.string().openapi({ example: "#1f93ff" }),
    show_on_sidebar: z.boolean(),
  })
  .openapi("Label");

export const LabelListSchema = z.object({ payload: z.array(LabelSchema) }).openapi("LabelList");

export const DEFAULT_LABEL_COLOR = "#1f93ff";

const labelFields = {
  // Chatwoot parity: titles are lower-cased before validation; letters, digits, `-` and `_` only.
  title: z
    .string()
    .toLowerCase()
    .min(1, { abort: true })
    .max(255, { abort: true })
    .regex(/^[\p{L}\p{N}_-]+$/u, "may contain only letters, digits, - and _")
    .openapi({ example: "billing" }),
  description: z.string().max(10_000).nullable().optional(),
  color: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, "must be a hex colour such as #1f93ff")
    .optional()
    .openapi({ example: DEFAULT_LABEL_COLOR }),
  show_on_sidebar: z.boolean().optional(),
};

export const LabelCreateSchema = z.object(labelFields).openapi("LabelCreate");

export const LabelUpdateSchema = z
  .object({ ...labelFields, title: labelFields.title.optional() })
  .openapi("LabelUpdate");

export type LabelCreate = z.infer<typeof LabelCreateSchema>;
export type LabelUpdate = z.infer<typeof LabelUpdateSchema>;

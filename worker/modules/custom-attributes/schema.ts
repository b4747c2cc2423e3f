import { z } from "@hono/zod-openapi";
import { ATTRIBUTE_DISPLAY_TYPES, ATTRIBUTE_MODELS } from "../../db/schema";
import { accountParams, IdParam } from "../../http/schemas/ids";

export const DefinitionParams = accountParams({
  id: IdParam.openapi({ param: { name: "id", in: "path" }, type: "integer", example: "1" }),
});

/** Chatwoot enums arrive as their integer (or its string) or as their name; stored as names. */
function enumInput<T extends readonly [string, ...string[]]>(names: T, description: string) {
  return z
    .union([
      z
        .number()
        .int()
        .min(0)
        .max(names.length - 1),
      z
        .string()
        .trim()
        .regex(/^\d+$/)
        .transform(Number)
        .pipe(z.number().max(names.length - 1)),
      z.enum(names),
    ])
    .transform((v) => (typeof v === "number" ? (names[v] as T[number]) : v))
    .openapi({ description, example: 0 });
}

export const DisplayTypeInput = enumInput(
  ATTRIBUTE_DISPLAY_TYPES,
  "0 text, 1 number, 2 currency, 3 percent, 4 link, 5 date, 6 list, 7 checkbox (names accepted)",
);
export const ModelInput = enumInput(
  ATTRIBUTE_MODELS,
  "0 conversation_attribute, 1 contact_attribute (names accepted)",
);

export const DefinitionSchema = z
  .object({
    id: z.number().int(),
    attribute_display_name: z.string().openapi({ example: "Plan" }),
    attribute_display_type: z.enum(ATTRIBUTE_DISPLAY_TYPES),
    attribute_description: z.string().nullable(),
    attribute_key: z.string().openapi({ example: "plan" }),
    regex_pattern: z.string().nullable(),
    regex_cue: z.string().nullable(),
    attribute_values: z.array(z.string()).openapi({ description: "Options of a list attribute" }),
    attribute_model: z.enum(ATTRIBUTE_MODELS),
    default_value: z.string().nullable(),
    created_at: z.string().openapi({ format: "date-time" }),
    updated_at: z.string().openapi({ format: "date-time" }),
  })
  .openapi("CustomAttributeDefinition");

export const DefinitionListSchema = z
  .array(DefinitionSchema)
  .openapi("CustomAttributeDefinitionList");

export const DefinitionListQuery = z.object({
  attribute_model: ModelInput.optional().openapi({
    param: { name: "attribute_model", in: "query" },
    type: "string",
    example: "contact_attribute",
    description: "contact_attribute / conversation_attribute, or 1 / 0; all when absent",
  }),
});

/** "" means "not set", as the dashboard sends it for the fields of other display types. */
const optionalText = (max: number) =>
  z.preprocess((v) => (v === "" ? null : v), z.string().max(max).nullable().optional());

const fields = {
  attribute_display_name: z.string().trim().min(1).max(255).openapi({ example: "Plan" }),
  attribute_key: z
    .string()
    .trim()
    .min(1)
    .max(255)
    .regex(/^[A-Za-z0-9_.-]+$/, "may contain only letters, digits, _, . and -")
    .openapi({ example: "plan" }),
  attribute_display_type: DisplayTypeInput,
  attribute_model: ModelInput,
  attribute_description: z.string().max(10_000).nullable().optional(),
  // Clients send lists with holes (`["a", null, "b"]`); the nulls are dropped, and only what
  // is left is checked (a list attribute left with no option is refused).
  attribute_values: z
    .preprocess(
      (v) => (Array.isArray(v) ? v.filter((item) => item !== null) : v),
      z.array(z.string().trim().min(1).max(255)).max(500).nullable().optional(),
    )
    .openapi({
      type: "array",
      items: { type: "string" },
      example: ["free", "pro"],
      description: "Options of a list attribute; null items are dropped",
    }),
  regex_pattern: optionalText(1000).openapi({ example: "^[a-z]+$" }),
  regex_cue: optionalText(1000).openapi({ example: "Lower-case letters only" }),
  default_value: z
    .union([z.string().max(10_000), z.number(), z.boolean()])
    .transform(String)
    .nullable()
    .optional(),
};

export const DefinitionCreateSchema = z
  .object({
    ...fields,
    // Chatwoot's column defaults: text, conversation_attribute.
    attribute_display_type: fields.attribute_display_type.default("text"),
    attribute_model: fields.attribute_model.default("conversation_attribute"),
  })
  .openapi("CustomAttributeDefinitionCreate");

export const DefinitionUpdateSchema = z
  .object({
    ...fields,
    attribute_display_name: fields.attribute_display_name.optional(),
    attribute_key: fields.attribute_key.optional(),
    attribute_display_type: fields.attribute_display_type.optional(),
    attribute_model: fields.attribute_model.optional(),
  })
  .openapi("CustomAttributeDefinitionUpdate");

export type DefinitionCreate = z.infer<typeof DefinitionCreateSchema>;
export type DefinitionUpdate = z.infer<typeof DefinitionUpdateSchema>;

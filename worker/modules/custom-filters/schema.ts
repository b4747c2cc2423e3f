import { z } from "@hono/zod-openapi";
import { CUSTOM_FILTER_TYPES } from "../../db/schema";
import { JsonObjectSchema } from "../../http/schemas/bounded-json";
import { accountParams, IdParam } from "../../http/schemas/ids";

export const CustomFilterParams = accountParams({
  custom_filter_id: IdParam.openapi({
    param: { name: "custom_filter_id", in: "path" },
    type: "integer",
    example: "1",
  }),
});

/** Chatwoot's limit (CustomFilter#validate_number_of_filters): 50 per user and account. */
export const MAX_FILTERS_PER_USER = 50;

const FilterType = z.enum(CUSTOM_FILTER_TYPES).openapi({ example: "conversation" });

const queryExample = {
  payload: [
    {
      attribute_key: "status",
      filter_operator: "equal_to",
      values: ["open"],
      query_operator: null,
    },
  ],
};

export const CustomFilterSchema = z
  .object({
    id: z.number().int(),
    name: z.string().openapi({ example: "Open billing" }),
    filter_type: FilterType,
    /** The swagger's name for filter_type. */
    type: FilterType,
    query: z.record(z.string(), z.unknown()).openapi({ example: queryExample }),
    created_at: z.string().openapi({ format: "date-time" }),
    updated_at: z.string().openapi({ format: "date-time" }),
  })
  .openapi("CustomFilter");

export const CustomFilterListSchema = z.array(CustomFilterSchema).openapi("CustomFilterList");

export const CustomFilterListQuery = z.object({
  filter_type: FilterType.optional(),
});

const fields = {
  name: z.string().trim().min(1, { abort: true }).max(255).openapi({ example: "Open billing" }),
  filter_type: FilterType.optional(),
  /** The swagger calls it `type`; Chatwoot's controller reads `filter_type`. Either is taken. */
  type: FilterType.optional(),
  query: JsonObjectSchema.openapi({
    example: queryExample,
    description:
      "For conversation and contact filters `{payload: [conditions]}` in the filter DSL of " +
      "POST …/conversations/filter and …/contacts/filter, checked the same way",
  }),
};

export const CustomFilterCreateSchema = z.object(fields).openapi("CustomFilterCreate");
export const CustomFilterUpdateSchema = z
  .object({ ...fields, name: fields.name.optional(), query: fields.query.optional() })
  .openapi("CustomFilterUpdate");

export type CustomFilterCreate = z.infer<typeof CustomFilterCreateSchema>;
export type CustomFilterUpdate = z.infer<typeof CustomFilterUpdateSchema>;

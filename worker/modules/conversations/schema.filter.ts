import { z } from "@hono/zod-openapi";
import { checkJsonBounds } from "../../http/schemas/bounded-json";
import { ConversationSchema, CountsSchema, SORT_KEYS } from "./schema";

const page = z.coerce.number().int().min(1).max(100_000);

export const ConversationFilterQuery = z.object({
  page: z.preprocess((v) => (v === "" ? undefined : v), page.optional()),
  sort_by: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.enum(SORT_KEYS).default("last_activity_at_desc"),
  ),
});

export const ConversationFilterBody = z
  .object({
    payload: z
      .array(
        z
          .object({
            attribute_key: z.string().openapi({ example: "status" }),
            filter_operator: z.string().openapi({ example: "equal_to" }),
            values: z
              .unknown()
              .superRefine(checkJsonBounds)
              .openapi({ type: "array", items: {}, example: ["open"] }),
            query_operator: z.string().nullable().optional().openapi({ example: "and" }),
          })
          .openapi("ConversationFilterCondition"),
      )
      .openapi({ description: "Conditions; each query_operator joins it to the next one" }),
    page: page.optional(),
  })
  .openapi("ConversationFilter");

export const ConversationFilterResultSchema = z
  .object({ meta: CountsSchema, payload: z.array(ConversationSchema) })
  .openapi("ConversationFilterResult");

import { z } from "@hono/zod-openapi";
import { checkJsonBounds } from "../../http/schemas/bounded-json";
import { PageNumber } from "../../http/schemas/pagination";
import { ConversationSchema, CountsSchema, SORT_KEYS } from "./schema";

export const ConversationFilterQuery = z.object({
  page: PageNumber,
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
    page: PageNumber,
  })
  .openapi("ConversationFilter");

export const ConversationFilterResultSchema = z
  .object({ meta: CountsSchema, payload: z.array(ConversationSchema) })
  .openapi("ConversationFilterResult");

import { z } from "@hono/zod-openapi";
import { checkJsonBounds } from "../../http/schemas/bounded-json";
import { accountParams, IdParam } from "../../http/schemas/ids";
import { lenientPage, MAX_PAGE } from "../../http/schemas/pagination";
import { InboxSchema } from "../inboxes/schema";

export const ContactParams = accountParams({
  id: IdParam.openapi({ param: { name: "id", in: "path" }, type: "integer", example: "1" }),
});

/** The inbox as a contact_inbox shows it; Parley has no channel providers (always null). */
const ContactInboxInboxSchema = InboxSchema.pick({
  id: true,
  avatar_url: true,
  channel_id: true,
  name: true,
  channel_type: true,
}).extend({ provider: z.string().nullable() });

export const ContactInboxSchema = z
  .object({ source_id: z.string(), inbox: ContactInboxInboxSchema })
  .openapi("ContactInbox");

/** The spec lists these four in list and filter results; "" when unset. */
export const ContactAdditionalAttributesSchema = z
  .object({
    city: z.string(),
    country: z.string(),
    country_code: z.string(),
    created_at_ip: z.string(),
  })
  .catchall(z.unknown())
  .openapi("ContactAdditionalAttributes");

export const ContactSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    email: z.string().nullable(),
    phone_number: z.string().nullable(),
    identifier: z.string().nullable(),
    blocked: z.boolean(),
    thumbnail: z.string().openapi({ description: 'Avatar URL, or ""' }),
    availability_status: z.enum(["online", "offline"]),
    additional_attributes: ContactAdditionalAttributesSchema,
    custom_attributes: z.record(z.string(), z.unknown()),
    last_activity_at: z.number().int().nullable(),
    created_at: z.number().int(),
    contact_inboxes: z.array(ContactInboxSchema),
  })
  .openapi("Contact");

/**
 * Chatwoot's contact partial as a conversation's meta.sender: no contact_inboxes, and
 * additional_attributes as stored (without the list's four defaulted keys).
 */
export const ConversationContactSchema = ContactSchema.omit({
  contact_inboxes: true,
  additional_attributes: true,
})
  .extend({ additional_attributes: z.record(z.string(), z.unknown()) })
  .openapi("ConversationContact");

export const ContactPageSchema = z
  .object({
    meta: z.object({
      count: z.number().int().openapi({ description: "Every match, across pages" }),
      current_page: z
        .union([z.string(), z.number().int()])
        .openapi({ description: "The page as sent (a string from the query string), or 1" }),
    }),
    payload: z.array(ContactSchema),
  })
  .openapi("ContactPage");

export const ContactShowSchema = z.object({ payload: ContactSchema }).openapi("ContactResponse");

export const ContactCreatedSchema = z
  .object({
    id: z.number().int().openapi({ description: "The new contact's id" }),
    payload: z.array(ContactSchema).openapi({ description: "The new contact (one element)" }),
    contact_inbox: ContactInboxSchema,
  })
  .openapi("ContactCreated");

export const ContactLabelsSchema = z
  .object({ payload: z.array(z.string()) })
  .openapi("ContactLabels");

export const ContactInboxListSchema = z
  .object({ payload: z.array(ContactInboxSchema) })
  .openapi("ContactInboxList");

export const SORT_KEYS = [
  "name",
  "email",
  "phone_number",
  "last_activity_at",
  "created_at",
] as const;
export type SortKey = (typeof SORT_KEYS)[number];
const SORT_VALUES = SORT_KEYS.flatMap((k) => [k, `-${k}`]) as [string, ...string[]];

/**
 * Page numbers as clients send them: a number in JSON, a string in the query. A page of 1 or
 * more is kept as sent (meta.current_page echoes it); 0, negative or non-numeric pages mean
 * page 1, as in Chatwoot (`lenientPage`).
 */
export const PageInput = z.preprocess(
  (v) => (typeof v === "string" && /^\s*0*[1-9]\d*\s*$/.test(v) ? v.trim() : lenientPage(v)),
  z
    .union([z.number().int(), z.string().regex(/^\d+$/, "must be a page number")])
    .refine((v) => Number(v) >= 1 && Number(v) <= MAX_PAGE, `must be between 1 and ${MAX_PAGE}`)
    .optional(),
);

const labelList = z.union([z.string(), z.array(z.string())]).optional();

export const ContactListQuery = z.object({
  sort: z
    .enum(SORT_VALUES)
    .optional()
    .openapi({
      param: { name: "sort", in: "query" },
      description:
        "A key for ascending order, `-key` for descending; nulls last. Default: " +
        "last_activity_at descending, then id descending.",
    }),
  page: PageInput.optional().openapi({ param: { name: "page", in: "query" }, type: "integer" }),
  labels: labelList.openapi({
    param: { name: "labels", in: "query" },
    description: "Contacts tagged with any of these labels (also `labels[]`)",
  }),
  "labels[]": labelList.openapi({ param: { name: "labels[]", in: "query" } }),
});

export const ContactSearchQuery = ContactListQuery.extend({
  q: z
    .string()
    .trim()
    .min(1, "Specify search string with parameter q")
    .max(255)
    .optional()
    .openapi({ param: { name: "q", in: "query" }, example: "alice" }),
});

export const ContactFilterQuery = z.object({
  page: PageInput.optional().openapi({ param: { name: "page", in: "query" }, type: "integer" }),
});

export const ContactFilterBody = z
  .object({
    payload: z
      .array(
        z
          .object({
            attribute_key: z.string().openapi({ example: "name" }),
            filter_operator: z.string().openapi({ example: "contains" }),
            values: z
              .unknown()
              .superRefine(checkJsonBounds)
              .openapi({ type: "array", items: {}, example: ["alice"] }),
            query_operator: z.string().nullable().optional().openapi({ example: "and" }),
          })
          .openapi("ContactFilterCondition"),
      )
      .openapi({ description: "Conditions; each query_operator joins it to the next one" }),
    page: PageInput.optional(),
  })
  .openapi("ContactFilter");

export type ContactListQueryInput = z.infer<typeof ContactListQuery>;

import { z } from "@hono/zod-openapi";
import { CONVERSATION_PRIORITIES, CONVERSATION_STATUSES } from "../../db/schema";
import { accountParams, IdParam } from "../../http/schemas/ids";
import { PageWithDefault } from "../../http/schemas/pagination";
import { AgentSchema } from "../agents/schema";
import { ConversationContactSchema } from "../contacts/schema";
import { MessageSchema } from "../messages/schema";
import { TeamSchema } from "../teams/schema";

export const ConversationParams = accountParams({
  conversation_id: IdParam.openapi({
    param: { name: "conversation_id", in: "path" },
    type: "integer",
    example: "1",
    description: "The conversation's display_id",
  }),
});

const jsonObject = z.record(z.string(), z.unknown());

/**
 * A read mark's message seq (Parley's addition beside Chatwoot's `*_last_seen_at`): the read
 * covers the messages up to this seq. Clocks are whole seconds, so a message stored in the
 * second of a read is told apart only by seq; null for a mark without one (compare by time).
 */
export const seenSeq = (who: string) =>
  z
    .number()
    .int()
    .nullable()
    .openapi({
      description: `The newest message seq when the ${who} last read; null: compare by time`,
    });

export const ConversationMetaSchema = z
  .object({
    sender: ConversationContactSchema,
    channel: z.string().openapi({ example: "Channel::Api" }),
    assignee: AgentSchema.nullable(),
    team: TeamSchema.nullable(),
    hmac_verified: z.boolean(),
  })
  .openapi("ConversationMeta");

export const ConversationSchema = z
  .object({
    id: z.number().int().openapi({ description: "The account-wide display_id" }),
    account_id: z.number().int(),
    uuid: z.string(),
    inbox_id: z.number().int(),
    status: z.enum(CONVERSATION_STATUSES),
    messages: z.array(MessageSchema).openapi({ description: "The last non-activity message" }),
    additional_attributes: jsonObject,
    custom_attributes: jsonObject,
    agent_last_seen_at: z.number().int().openapi({ description: "Unix seconds; 0 when never" }),
    assignee_last_seen_at: z.number().int().openapi({ description: "Unix seconds; 0 when never" }),
    contact_last_seen_at: z.number().int().openapi({ description: "Unix seconds; 0 when never" }),
    contact_last_seen_seq: seenSeq("contact"),
    can_reply: z.boolean(),
    labels: z.array(z.string()),
    muted: z.boolean(),
    snoozed_until: z.number().int().nullable(),
    created_at: z.number().int(),
    updated_at: z.number().int(),
    timestamp: z.number().int().openapi({ description: "Creation time of the conversation" }),
    first_reply_created_at: z.number().int().nullable(),
    unread_count: z.number().int(),
    last_non_activity_message: MessageSchema.nullable(),
    last_activity_at: z.number().int(),
    priority: z.enum(CONVERSATION_PRIORITIES).nullable(),
    waiting_since: z.number().int().nullable(),
    sla_policy_id: z.number().int().nullable(),
    applied_sla: jsonObject,
    sla_events: z.array(jsonObject),
    meta: ConversationMetaSchema,
  })
  .openapi("Conversation");

export type ConversationJson = z.infer<typeof ConversationSchema>;

export const CountsSchema = z
  .object({
    mine_count: z.number().int(),
    unassigned_count: z.number().int(),
    assigned_count: z.number().int(),
    all_count: z.number().int(),
  })
  .openapi("ConversationCounts");

export type Counts = z.infer<typeof CountsSchema>;

export const ConversationListSchema = z
  .object({ data: z.object({ meta: CountsSchema, payload: z.array(ConversationSchema) }) })
  .openapi("ConversationList");

export const ConversationMetaResponseSchema = z
  .object({ data: z.object({ meta: CountsSchema }) })
  .openapi("ConversationListMeta");

export const ConversationPayloadListSchema = z
  .object({ payload: z.array(ConversationSchema) })
  .openapi("ConversationPayloadList");

/** Ids arrive as JSON numbers from Chatwoot clients and as numeric strings from form-style ones. */
export const BodyId = z.union([
  z.number().int().positive(),
  z
    .string()
    .regex(/^\d{1,15}$/, "must be a numeric id")
    .transform(Number),
]);

/** Unix seconds, as a number or a numeric string. */
export const UnixSeconds = z.union([
  z.number().int().nonnegative(),
  z
    .string()
    .regex(/^\d{1,12}$/, "must be unix seconds")
    .transform(Number),
]);

/** Free-form tags: trimmed and lower-cased (Chatwoot parity); they need not exist as labels. */
export const LabelTitle = z.string().trim().toLowerCase().min(1).max(255);

export const SORT_KEYS = [
  "last_activity_at_desc",
  "last_activity_at_asc",
  "created_at_desc",
  "created_at_asc",
  "priority_desc",
  "priority_asc",
  "waiting_since_desc",
  "waiting_since_asc",
  "priority_desc_created_at_asc",
  "latest",
  "sort_on_created_at",
  "sort_on_priority",
  "sort_on_waiting_since",
] as const;
export type SortKey = (typeof SORT_KEYS)[number];

export const ASSIGNEE_TYPES = ["me", "unassigned", "assigned", "all"] as const;
export type AssigneeType = (typeof ASSIGNEE_TYPES)[number];

/** Query strings often carry empty values (`inbox_id=`); they mean "no filter". */
const blankAsMissing = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === "" ? undefined : v), schema);

/** `labels=a&labels=b`, `labels[]=a` or a single `labels=a`: always a list. */
const labelList = z
  .preprocess(
    (v) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]),
    z.array(LabelTitle).max(50).optional(),
  )
  .openapi({ type: "array", items: { type: "string" } });

const queryId = blankAsMissing(z.coerce.number().int().positive().max(1e15).optional());

/** The filters shared by the list and its meta (Chatwoot's ConversationFinder params). */
export const ConversationListQuery = z.object({
  assignee_type: blankAsMissing(z.enum(ASSIGNEE_TYPES).default("all")),
  status: blankAsMissing(z.enum([...CONVERSATION_STATUSES, "all"]).default("open")),
  q: z.string().max(500).optional().openapi({ description: "Words in message content" }),
  inbox_id: queryId,
  team_id: queryId,
  labels: labelList,
  "labels[]": labelList,
  sort_by: blankAsMissing(z.enum(SORT_KEYS).default("last_activity_at_desc")),
  page: PageWithDefault,
});

export type ConversationListParams = z.infer<typeof ConversationListQuery>;

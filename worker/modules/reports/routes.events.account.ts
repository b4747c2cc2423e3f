import { createRoute, z } from "@hono/zod-openapi";
import type { AccountEnv } from "../../http/context";
import { errorResponses } from "../../http/errors";
import { requireAdmin, requireMember } from "../../http/middleware/require-role";
import { createRouter } from "../../http/router";
import { jsonContent } from "../../http/schemas/envelopes";
import { AccountParams, IdParam } from "../../http/schemas/ids";
import { PageNumber } from "../../http/schemas/pagination";
import { scopeOf } from "../../http/scope";
import { isoFromSeconds } from "../../lib/time";
import { loadConversationFor } from "../conversations/access";
import { ConversationParams } from "../conversations/schema";
import {
  conversationReportingEvents,
  type ReportingEventRow,
  reportingEventPage,
} from "./queries.events";

const tags = ["Reports"];
const PER_PAGE = 25;

export const ReportingEventSchema = z
  .object({
    id: z.number().int(),
    name: z.string().openapi({ example: "first_response" }),
    value: z.number(),
    value_in_business_hours: z.number(),
    event_start_time: z.string().openapi({ format: "date-time" }),
    event_end_time: z.string().openapi({ format: "date-time" }),
    account_id: z.number().int(),
    /** The conversation's display id, as every conversation path uses. */
    conversation_id: z.number().int().nullable(),
    inbox_id: z.number().int().nullable(),
    user_id: z.number().int().nullable(),
    created_at: z.string().openapi({ format: "date-time" }),
    updated_at: z.string().openapi({ format: "date-time" }),
  })
  .openapi("ReportingEvent");

const Seconds = z
  .string()
  .regex(/^\d{1,12}$/, "must be unix seconds")
  .transform(Number)
  .optional();

const ListQuery = z.object({
  page: PageNumber,
  since: Seconds,
  until: Seconds,
  inbox_id: IdParam.optional(),
  user_id: IdParam.optional(),
  name: z.string().max(64).optional(),
});

const ListSchema = z
  .object({
    meta: z.object({
      count: z.number().int(),
      current_page: z.number().int(),
      total_pages: z.number().int(),
    }),
    payload: z.array(ReportingEventSchema),
  })
  .openapi("ReportingEventList");

function present({ event: e, displayId }: ReportingEventRow): z.infer<typeof ReportingEventSchema> {
  return {
    id: e.id,
    name: e.name,
    value: e.value,
    value_in_business_hours: e.valueInBusinessHours,
    event_start_time: isoFromSeconds(e.eventStartTime),
    event_end_time: isoFromSeconds(e.eventEndTime),
    account_id: e.accountId,
    conversation_id: displayId ?? null,
    inbox_id: e.inboxId,
    user_id: e.userId,
    created_at: isoFromSeconds(e.createdAt),
    // Facts are never changed once written.
    updated_at: isoFromSeconds(e.createdAt),
  };
}

// Chatwoot: GET /api/v1/accounts/{a}/reporting_events (administrators)
const list = createRoute({
  method: "get",
  path: "/reporting_events",
  tags,
  summary: "The account's reporting events, newest first, 25 a page (administrators)",
  middleware: [requireAdmin] as const,
  request: { params: AccountParams, query: ListQuery },
  responses: { 200: jsonContent(ListSchema, "A page"), ...errorResponses },
});

// Chatwoot: GET /api/v1/accounts/{a}/conversations/{id}/reporting_events
const ofConversation = createRoute({
  method: "get",
  path: "/conversations/{conversation_id}/reporting_events",
  tags,
  summary: "A conversation's reporting events, oldest first",
  middleware: [requireMember()] as const,
  request: { params: ConversationParams },
  responses: {
    200: jsonContent(z.array(ReportingEventSchema), "Its reporting events"),
    ...errorResponses,
  },
});

export const reportingEventRoutes = createRouter<AccountEnv>()
  .openapi(list, async (c) => {
    const q = c.req.valid("query");
    const page = q.page ?? 1;
    const filter = {
      since: q.since,
      until: q.until,
      inboxId: q.inbox_id,
      userId: q.user_id,
      name: q.name,
    };
    const db = c.var.deps.db;
    const found = await reportingEventPage(
      db,
      c.var.account.id,
      filter,
      PER_PAGE,
      (page - 1) * PER_PAGE,
    );
    const meta = {
      count: found.count,
      current_page: page,
      total_pages: Math.ceil(found.count / PER_PAGE),
    };
    return c.json({ meta, payload: found.rows.map(present) }, 200);
  })
  .openapi(ofConversation, async (c) => {
    const conversation = await loadConversationFor(
      scopeOf(c),
      c.req.valid("param").conversation_id,
    );
    const rows = await conversationReportingEvents(
      c.var.deps.db,
      c.var.account.id,
      conversation.id,
    );
    return c.json(rows.map(present), 200);
  });

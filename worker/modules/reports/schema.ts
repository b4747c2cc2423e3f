import { z } from "@hono/zod-openapi";

const unixSeconds = (name: string, description: string) =>
  z
    .string()
    .regex(/^\d{1,11}$/, "must be Unix seconds")
    .transform(Number)
    .optional()
    .openapi({ param: { name, in: "query" }, description, example: "1700000000" });

export const since = unixSeconds("since", "Start of the range, Unix seconds, inclusive");
export const until = unixSeconds("until", "End of the range, Unix seconds, exclusive");
const businessHours = z
  .enum(["true", "false"])
  .optional()
  .transform((v) => v === "true")
  .openapi({
    param: { name: "business_hours", in: "query" },
    description: "Averages count only the inbox's working hours (docs/reports.md)",
  });

/** E17/E18 and the inbox/label siblings: range (either bound missing: all time) and hours. */
export const SummaryQuery = z.object({ since, until, business_hours: businessHours });

/** Satisfaction (CSAT answers) of a summary row or a range's totals; docs/reports.md. */
const satisfactionShape = {
  csat_responses_count: z.number().int().openapi({
    description:
      "CSAT survey answers given in the range (by the agent and team the survey was sent for)",
  }),
  csat_satisfaction_score: z.number().nullable().openapi({
    description: "Percent of those answers rated 4 or 5 (two decimals); null: no answers",
  }),
};

export const SummaryRowSchema = z
  .object({
    id: z.number().int(),
    conversations_count: z.number().int(),
    resolved_conversations_count: z.number().int(),
    avg_resolution_time: z.number().nullable().openapi({ description: "Seconds; null: no data" }),
    avg_first_response_time: z.number().nullable(),
    avg_reply_time: z.number().nullable(),
    ...satisfactionShape,
  })
  .openapi("SummaryReportRow");

export const SummaryListSchema = z.array(SummaryRowSchema).openapi("SummaryReport");

export const REPORT_TYPES = ["account", "agent", "inbox", "label", "team"] as const;
export const METRICS = [
  "conversations_count",
  "incoming_messages_count",
  "outgoing_messages_count",
  "avg_first_response_time",
  "avg_resolution_time",
  "reply_time",
  "resolutions_count",
  "bot_resolutions_count",
  "bot_handoffs_count",
] as const;
export type Metric = (typeof METRICS)[number];

const typeId = {
  type: z
    .enum(REPORT_TYPES)
    .default("account")
    .openapi({ param: { name: "type", in: "query" } }),
  id: z
    .string()
    .regex(/^\d{1,15}$/, "must be a numeric id")
    .transform(Number)
    .optional()
    .openapi({ param: { name: "id", in: "query" }, description: "Required unless type=account" }),
};

export const SeriesQuery = z.object({
  metric: z.enum(METRICS).openapi({ param: { name: "metric", in: "query" } }),
  ...typeId,
  since,
  until,
  group_by: z
    .enum(["day", "week", "month", "year"])
    .default("day")
    .openapi({ param: { name: "group_by", in: "query" } }),
  timezone_offset: z
    .string()
    .regex(/^[+-]?\d{1,2}(\.\d{1,2})?$/, "must be hours east of UTC, e.g. 5.5 or -3")
    .transform(Number)
    .optional()
    .openapi({ param: { name: "timezone_offset", in: "query" }, example: "0" }),
  business_hours: businessHours,
});

export const SeriesSchema = z
  .array(z.object({ value: z.number(), timestamp: z.number().int() }))
  .openapi("ReportSeries");

export const TotalsQuery = z.object({ ...typeId, since, until, business_hours: businessHours });

const totalsShape = {
  conversations_count: z.number().int(),
  incoming_messages_count: z.number().int(),
  outgoing_messages_count: z.number().int(),
  avg_first_response_time: z.number(),
  avg_resolution_time: z.number(),
  reply_time: z.number(),
  resolutions_count: z.number().int(),
  bot_resolutions_count: z.number().int(),
  bot_handoffs_count: z.number().int(),
  ...satisfactionShape,
};

export const TotalsSchema = z
  .object({
    ...totalsShape,
    previous: z
      .object(totalsShape)
      .openapi({ description: "The same totals for the range of equal length just before" }),
  })
  .openapi("ReportTotals");

export const LiveQuery = z.object({
  type: z
    .enum(["account", "agent"])
    .default("account")
    .openapi({ param: { name: "type", in: "query" } }),
});

const liveShape = {
  open: z.number().int(),
  unattended: z.number().int(),
  unassigned: z.number().int(),
  pending: z.number().int(),
};

export const LiveAccountSchema = z.object(liveShape).openapi("ConversationMetrics");
export const LiveAgentsSchema = z
  .array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      email: z.string(),
      metric: z.object(liveShape),
    }),
  )
  .openapi("AgentConversationMetrics");

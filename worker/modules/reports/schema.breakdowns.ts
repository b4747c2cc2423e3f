import { z } from "@hono/zod-openapi";
import { CONVERSATION_STATUSES } from "../../db/schema";
import { invalidField } from "../../lib/errors";
import { FIRST_RESPONSE_BUCKETS } from "./queries.breakdowns";
import { since, until } from "./schema";

/** The four breakdown reports take a range like the summaries: [since, until), Unix seconds. */
export const RangeQuery = z.object({ since, until });

/** At most this many ids in an inbox_ids / label_ids filter. */
export const MAX_FILTER_IDS = 100;

const idList = (name: string) =>
  z
    .union([z.string(), z.array(z.string()).max(MAX_FILTER_IDS)])
    .optional()
    .openapi({
      param: { name, in: "query" },
      description: `Numeric ids, repeated (\`${name}=1&${name}=2\`) or comma-separated; at most ${MAX_FILTER_IDS}`,
    });

/** Rails clients send `inbox_ids[]=1`, others `inbox_ids=1,2`: both are read, ids merged. */
export const MatrixQuery = RangeQuery.extend({
  inbox_ids: idList("inbox_ids"),
  "inbox_ids[]": idList("inbox_ids[]"),
  label_ids: idList("label_ids"),
  "label_ids[]": idList("label_ids[]"),
});

export const OutgoingQuery = RangeQuery.extend({
  group_by: z
    .enum(["agent", "team", "inbox", "label"])
    .openapi({ param: { name: "group_by", in: "query" }, example: "agent" }),
});

const channelExample = {
  "Channel::Api": { open: 5, resolved: 15, pending: 3, snoozed: 1, total: 24 },
};

export const ChannelSummarySchema = z
  .record(
    z.string(),
    z.object({
      ...(Object.fromEntries(CONVERSATION_STATUSES.map((s) => [s, z.number().int()])) as Record<
        (typeof CONVERSATION_STATUSES)[number],
        z.ZodNumber
      >),
      total: z.number().int(),
    }),
  )
  .openapi("ChannelSummary", {
    description:
      "Per channel type (e.g. Channel::WebWidget): conversations created in the range by current status",
    example: channelExample,
  });

export const FirstResponseDistributionSchema = z
  .record(
    z.string(),
    z.object(
      Object.fromEntries(FIRST_RESPONSE_BUCKETS.map((b) => [b.key, z.number().int()])) as Record<
        (typeof FIRST_RESPONSE_BUCKETS)[number]["key"],
        z.ZodNumber
      >,
    ),
  )
  .openapi("FirstResponseTimeDistribution", {
    description: "Per channel type: first responses in the range by time to first response",
    example: {
      "Channel::WebWidget": { "0-1h": 150, "1-4h": 80, "4-8h": 45, "8-24h": 30, "24h+": 15 },
    },
  });

export const OutgoingMessagesCountSchema = z
  .array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      outgoing_messages_count: z.number().int(),
    }),
  )
  .openapi("OutgoingMessagesCount");

export const InboxLabelMatrixSchema = z
  .object({
    inboxes: z.array(z.object({ id: z.number().int(), name: z.string() })),
    labels: z.array(z.object({ id: z.number().int(), title: z.string() })),
    matrix: z
      .array(z.array(z.number().int()))
      .openapi({ description: "matrix[i][j]: conversations of inboxes[i] labelled labels[j]" }),
  })
  .openapi("InboxLabelMatrix");

/** The ids of both spellings of a filter, or undefined when absent; a non-id is a 422. */
export function idsOf(
  name: string,
  ...values: (string | string[] | undefined)[]
): number[] | undefined {
  const parts = values
    .flat()
    .flatMap((v) => (v === undefined ? [] : v.split(",")))
    .map((p) => p.trim())
    .filter((p) => p !== "");
  if (parts.length === 0) {
    return undefined;
  }
  if (parts.length > MAX_FILTER_IDS || !parts.every((p) => /^\d{1,15}$/.test(p))) {
    throw invalidField(name, `must be up to ${MAX_FILTER_IDS} numeric ids`);
  }
  return parts.map(Number);
}

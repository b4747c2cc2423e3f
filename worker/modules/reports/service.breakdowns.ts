import type { Db } from "../../db/client";
import { CONVERSATION_STATUSES, type ConversationStatus } from "../../db/schema";
import { ApiError, invalidField } from "../../lib/errors";
import { MAX_UNION, pairCounts, type Totals } from "./queries";
import {
  bucketMetric,
  FIRST_RESPONSE_BUCKETS,
  FIRST_RESPONSE_BY_BUCKET,
  type FirstResponseBucket,
  inboxChannels,
  labelsByTitle,
  statusCountsByInbox,
} from "./queries.breakdowns";
import { DAY, planRange } from "./range";
import {
  aggregateOf,
  aggregateReads,
  countOf,
  type RangeInput,
  rangeOf,
  SUMMARY_KINDS,
  type SummaryKind,
  subjectsOf,
} from "./service";

/** Chatwoot's channel summary limit (ChannelSummaryBuilder::MAX_DURATION, six months). */
export const CHANNEL_MAX_DAYS = 183;

type StatusCounts = Record<ConversationStatus, number> & { total: number };

/**
 * Conversations created in the range per channel type and current status (Chatwoot's
 * summary_reports/channel). The only report not read from facts: a status is today's, not an
 * event's, so it is read from rollups of conversations by their current status (queries.breakdowns:
 * statusCountsByInbox). Both bounds are required and the range is at most six months.
 */
export async function channelSummary(db: Db, accountId: number, input: RangeInput) {
  if (input.since === undefined || input.until === undefined) {
    throw invalidField(input.since === undefined ? "since" : "until", "is required");
  }
  const span = rangeOf(input);
  if (span && span.to - span.from > CHANNEL_MAX_DAYS * DAY) {
    throw new ApiError("bad_request", "The date range must not exceed 6 months", [
      { path: "until", message: `must be at most ${CHANNEL_MAX_DAYS} days after since` },
    ]);
  }
  const [inboxes, rows] = await db.batch([
    inboxChannels(db, accountId),
    statusCountsByInbox(db, accountId, span ?? { from: 0, to: 0 }),
  ]);
  const channelOf = new Map(inboxes.map((i) => [i.id, i.channelType]));
  const out: Record<string, StatusCounts> = {};
  for (const row of rows) {
    const channel = channelOf.get(row.inboxId);
    if (channel === undefined) {
      continue;
    }
    const counts = out[channel] ?? {
      ...(Object.fromEntries(CONVERSATION_STATUSES.map((s) => [s, 0])) as StatusCounts),
      total: 0,
    };
    out[channel] = counts;
    if (row.status in counts && row.status !== "total") {
      counts[row.status as ConversationStatus] += row.count;
      counts.total += row.count;
    }
  }
  return out;
}

/** First responses in the range per channel type, by Chatwoot's response-time buckets. */
export async function firstResponseDistribution(db: Db, accountId: number, input: RangeInput) {
  const plan = planRange(rangeOf(input));
  const metrics = FIRST_RESPONSE_BUCKETS.map((b) => bucketMetric(b.key));
  const [inboxes, ...answers] = (await db.batch([
    inboxChannels(db, accountId),
    ...aggregateReads(db, accountId, "inbox", metrics, plan, undefined, FIRST_RESPONSE_BY_BUCKET),
  ])) as [{ id: number; channelType: string }[], ...Totals[][]];
  const a = aggregateOf(answers);
  const out: Record<string, Record<FirstResponseBucket, number>> = {};
  for (const inbox of inboxes) {
    const counts = FIRST_RESPONSE_BUCKETS.map((b) => countOf(a, inbox.id, bucketMetric(b.key)));
    if (counts.every((n) => n === 0)) {
      continue; // Chatwoot lists a channel only when it has first responses in the range
    }
    const row =
      out[inbox.channelType] ??
      (Object.fromEntries(FIRST_RESPONSE_BUCKETS.map((b) => [b.key, 0])) as Record<
        FirstResponseBucket,
        number
      >);
    out[inbox.channelType] = row;
    FIRST_RESPONSE_BUCKETS.forEach((b, i) => {
      row[b.key] += counts[i] ?? 0;
    });
  }
  return out;
}

/**
 * Public outgoing messages in the range per agent, team, inbox or label, each as recorded by its
 * message_outgoing fact: the sending agent (bots, rules and the API count under no agent), the
 * team, inbox and labels as at the message. Only entities with messages are listed (Chatwoot).
 */
export async function outgoingMessagesCount(
  db: Db,
  accountId: number,
  groupBy: SummaryKind,
  input: RangeInput,
) {
  const { dimension } = SUMMARY_KINDS[groupBy];
  const plan = planRange(rangeOf(input));
  const [subjects, ...answers] = (await db.batch([
    subjectsOf(db, accountId, groupBy),
    ...aggregateReads(db, accountId, dimension, ["message_outgoing"], plan),
  ])) as [{ id: number; name: string }[], ...Totals[][]];
  const a = aggregateOf(answers);
  return subjects
    .map((s) => ({
      id: s.id,
      name: s.name,
      outgoing_messages_count: countOf(a, s.id, "message_outgoing"),
    }))
    .filter((r) => r.outgoing_messages_count > 0);
}

/**
 * Conversations labelled in the range, per inbox (rows, by name) and label (columns, by title),
 * optionally only some inboxes and labels. Counted from conversation_labelled facts, as the
 * label summary's conversations_count (docs/reports.md says how this differs from Chatwoot).
 */
export async function inboxLabelMatrix(
  db: Db,
  accountId: number,
  input: RangeInput & { inbox_ids?: number[]; label_ids?: number[] },
) {
  const plan = planRange(rangeOf(input));
  const reads = [];
  for (let i = 0; i < plan.length; i += MAX_UNION) {
    reads.push(pairCounts(db, accountId, plan.slice(i, i + MAX_UNION)));
  }
  const [allInboxes, allLabels, ...answers] = (await db.batch([
    inboxChannels(db, accountId),
    labelsByTitle(db, accountId),
    ...reads,
  ])) as [
    { id: number; name: string }[],
    { id: number; title: string }[],
    ...{ inboxId: number; labelId: number; count: number }[][],
  ];
  const only = <T extends { id: number }>(rows: T[], ids?: number[]) =>
    ids?.length ? rows.filter((r) => ids.includes(r.id)) : rows;
  const inboxes = only(allInboxes, input.inbox_ids).map((i) => ({ id: i.id, name: i.name }));
  const labels = only(allLabels, input.label_ids);
  const cells = new Map<string, number>();
  for (const row of answers.flat()) {
    const k = `${row.inboxId}:${row.labelId}`;
    cells.set(k, (cells.get(k) ?? 0) + row.count);
  }
  return {
    inboxes,
    labels,
    matrix: inboxes.map((i) => labels.map((l) => cells.get(`${i.id}:${l.id}`) ?? 0)),
  };
}

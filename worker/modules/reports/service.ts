import type { Db } from "../../db/client";
import type { RollupDimension } from "../../db/schema";
import { invalidField } from "../../lib/errors";
import {
  accountInboxes,
  accountLabels,
  accountMembers,
  accountTeams,
  type Derived,
  MAX_UNION,
  signedTotals,
  type Totals,
} from "./queries";
import { type CsatTotals, csatTotals } from "./queries.csat";
import { type Plan, planRange, type Span } from "./range";

/** What each summary reads: the fact counted as conversations_count, per dimension. */
export const SUMMARY_KINDS = {
  agent: { dimension: "user", conversations: "conversation_assigned" },
  team: { dimension: "team", conversations: "conversation_team_assigned" },
  inbox: { dimension: "inbox", conversations: "conversation_created" },
  label: { dimension: "label", conversations: "conversation_labelled" },
} as const satisfies Record<string, { dimension: RollupDimension; conversations: string }>;
export type SummaryKind = keyof typeof SUMMARY_KINDS;

export type RangeInput = { since?: number; until?: number };

/** [since, until); either bound missing: all time (Chatwoot). since after until: 422. */
export function rangeOf(input: RangeInput): Span | null {
  if (input.since === undefined || input.until === undefined) {
    return null;
  }
  if (input.since > input.until) {
    throw invalidField("since", "must not be after until");
  }
  return { from: input.since, to: input.until };
}

/** One aggregate per (id, metric): rollups for whole days and months, raw events at the edges. */
export type Aggregates = Map<string, Totals>;
const key = (id: number, metric: string) => `${id}:${metric}`;

/** A plan's pieces as statements of up to five signed pieces each (one batch, one round trip). */
export function aggregateReads(
  db: Db,
  accountId: number,
  dimension: RollupDimension,
  metrics: string[],
  plan: Plan,
  id?: number,
  derived?: Derived,
) {
  const reads = [];
  for (let i = 0; i < plan.length; i += MAX_UNION) {
    const pieces = plan.slice(i, i + MAX_UNION);
    reads.push(signedTotals(db, accountId, dimension, metrics, pieces, id, derived));
  }
  return reads;
}

/** Folds the answers of aggregateReads (rows already signed) into one aggregate per key. */
export function aggregateOf(answers: Totals[][]): Aggregates {
  const out: Aggregates = new Map();
  for (const row of answers.flat()) {
    const k = key(Number(row.id), row.metric);
    const prev = out.get(k);
    out.set(k, {
      id: Number(row.id),
      metric: row.metric,
      count: (prev?.count ?? 0) + Number(row.count),
      sum: (prev?.sum ?? 0) + Number(row.sum ?? 0),
      sumBh: (prev?.sumBh ?? 0) + Number(row.sumBh ?? 0),
    });
  }
  return out;
}

export const countOf = (a: Aggregates, id: number, metric: string) =>
  a.get(key(id, metric))?.count ?? 0;

/** Average seconds (business seconds when asked), null with no events. */
export function averageOf(a: Aggregates, id: number, metric: string, businessHours: boolean) {
  const t = a.get(key(id, metric));
  if (!t || t.count === 0) {
    return null;
  }
  return (businessHours ? t.sumBh : t.sum) / t.count;
}

/**
 * Satisfaction in the reports (Chatwoot's CSAT metrics): the answers counted, and the share
 * rated 4 or 5 in percent with two decimals (its satisfaction score); null without answers.
 */
export function satisfactionOf(rows: CsatTotals[], id: number) {
  const row = rows.find((r) => Number(r.id) === id);
  const responses = Number(row?.responses ?? 0);
  const satisfied = Number(row?.satisfied ?? 0);
  return {
    csat_responses_count: responses,
    csat_satisfaction_score:
      responses === 0 ? null : Math.round((satisfied / responses) * 10_000) / 100,
  };
}

export type SummaryRow = {
  id: number;
  name: string;
  conversations_count: number;
  resolved_conversations_count: number;
  avg_resolution_time: number | null;
  avg_first_response_time: number | null;
  avg_reply_time: number | null;
  csat_responses_count: number;
  csat_satisfaction_score: number | null;
};

export const subjectsOf = (db: Db, accountId: number, kind: SummaryKind) =>
  ({
    agent: () => accountMembers(db, accountId),
    team: () => accountTeams(db, accountId),
    inbox: () => accountInboxes(db, accountId),
    label: () => accountLabels(db, accountId),
  })[kind]();

/**
 * E17/E18 and siblings: one row per agent (every member, zeros included), team, inbox or label.
 * conversations_count follows the spec: conversations assigned (to the agent / the team) or
 * labelled within the range; inboxes count conversations created in the range. docs/reports.md.
 */
export async function summaryReport(
  db: Db,
  accountId: number,
  kind: SummaryKind,
  input: RangeInput & { business_hours?: boolean },
): Promise<SummaryRow[]> {
  const { dimension, conversations } = SUMMARY_KINDS[kind];
  const span = rangeOf(input);
  const plan = planRange(span);
  const metrics = [conversations, "conversation_resolved", "first_response", "reply_time"];
  // The subjects, the survey answers and every piece of the range in one D1 batch: one round
  // trip per request.
  const [subjects, csat, ...answers] = (await db.batch([
    subjectsOf(db, accountId, kind),
    csatTotals(db, accountId, dimension, span),
    ...aggregateReads(db, accountId, dimension, metrics, plan),
  ])) as [{ id: number; name: string }[], CsatTotals[], ...Totals[][]];
  const a = aggregateOf(answers);
  const bh = input.business_hours ?? false;
  return subjects.map((s) => ({
    id: s.id,
    name: s.name,
    conversations_count: countOf(a, s.id, conversations),
    resolved_conversations_count: countOf(a, s.id, "conversation_resolved"),
    avg_resolution_time: averageOf(a, s.id, "conversation_resolved", bh),
    avg_first_response_time: averageOf(a, s.id, "first_response", bh),
    avg_reply_time: averageOf(a, s.id, "reply_time", bh),
    ...satisfactionOf(csat, s.id),
  }));
}

import type { z } from "@hono/zod-openapi";
import type { SummaryRowSchema } from "./schema";
import type { SummaryRow } from "./service";

export type SummaryRowJson = z.infer<typeof SummaryRowSchema>;

/** A summary row on the wire (E17/E18 and siblings): the spec's six fields and satisfaction, name left out. */
export const presentSummaryRow = (row: SummaryRow): SummaryRowJson => ({
  id: row.id,
  conversations_count: row.conversations_count,
  resolved_conversations_count: row.resolved_conversations_count,
  avg_resolution_time: row.avg_resolution_time,
  avg_first_response_time: row.avg_first_response_time,
  avg_reply_time: row.avg_reply_time,
  csat_responses_count: row.csat_responses_count,
  csat_satisfaction_score: row.csat_satisfaction_score,
});

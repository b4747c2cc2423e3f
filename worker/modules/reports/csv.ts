import { csvLine } from "../../lib/csv";
import type { SummaryRow } from "./service";

const COLUMNS = [
  "id",
  "name",
  "conversations_count",
  "resolved_conversations_count",
  "avg_resolution_time",
  "avg_first_response_time",
  "avg_reply_time",
  "csat_responses_count",
  "csat_satisfaction_score",
] as const;

/** The summary as CSV (header row, CRLF line ends), streamed one row at a time. */
export function summaryCsv(rows: SummaryRow[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let i = -1;
  return new ReadableStream({
    pull(controller) {
      if (i >= rows.length) {
        controller.close();
        return;
      }
      const line =
        i < 0 ? COLUMNS.join(",") : csvLine(COLUMNS.map((c) => (rows[i] as SummaryRow)[c]));
      controller.enqueue(encoder.encode(`${line}\r\n`));
      i += 1;
    },
  });
}

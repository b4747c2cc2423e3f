import { env } from "cloudflare:test";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "../../worker/db/client";
import { localDays, pairCounts, signedTotals } from "../../worker/modules/reports/queries";
import {
  FIRST_RESPONSE_BY_BUCKET,
  statusCountsByInbox,
} from "../../worker/modules/reports/queries.breakdowns";
import { businessClock } from "../../worker/modules/reports/queries.calendar";
import { hasFact, lastFactAt } from "../../worker/modules/reports/queries.facts";
import { queryPlan } from "../support/query-plan";

const db = createDb(env.DB);
const span = { from: 1_700_000_000, to: 1_731_536_000 };

const plan = async (query: Parameters<typeof queryPlan>[0]) => (await queryPlan(query)).join("\n");

// Report reads stay flat with the data: each is an index range, never a scan of a table.
describe("report query plans", () => {
  it.each(["hour", "day", "month", "year"] as const)(
    "summaries read %s rollups by their primary key",
    async (grain) => {
      for (const id of [undefined, 2]) {
        const q = signedTotals(
          db,
          1,
          "user",
          ["first_response", "reply_time"],
          [
            { source: grain, span, sign: 1 },
            { source: grain, span, sign: -1 },
          ],
          id,
        );
        const p = await plan(q);
        expect(p).toMatch(
          /SEARCH reporting_rollups USING (PRIMARY KEY|INDEX sqlite_autoindex_reporting_rollups_1|COVERING INDEX reporting_rollups_series_by_id)/,
        );
        expect(p).not.toMatch(/SCAN reporting_rollups/);
      }
    },
  );

  it.each(["hour", "day"] as const)(
    "a time series reads %s rows by the series index",
    async (grain) => {
      for (const wholeHoursOnly of [false, true]) {
        const q = localDays(db, 1, "user", 2, "first_response", -18_000, [
          { source: grain, span, wholeHoursOnly },
        ]);
        const p = await plan(q);
        expect(p).toMatch(
          /SEARCH reporting_rollups USING COVERING INDEX reporting_rollups_series_by_id/,
        );
        expect(p).not.toMatch(/SCAN reporting_rollups/);
      }
    },
  );

  it("the edges and split hours read raw events by account, name and time", async () => {
    for (const dimension of ["user", "label"] as const) {
      for (const q of [
        signedTotals(db, 1, dimension, ["first_response"], [{ source: "raw", span, sign: -1 }]),
        localDays(db, 1, dimension, 3, "reply_time", 19_800, [
          { source: "raw", span },
          { source: "split", span, every: 86_400 },
        ]),
      ]) {
        const p = await plan(q);
        expect(p).toMatch(
          /SEARCH reporting_events USING INDEX reporting_events_account_name_created/,
        );
        expect(p).not.toMatch(/SCAN reporting_events/);
      }
    }
  });

  it("business seconds and a conversation's earlier facts are index lookups", async () => {
    const clock = await plan(sql`SELECT ${businessClock(sql`1`, sql`1700000000`)}`);
    expect(clock).toMatch(/SEARCH h USING (PRIMARY KEY|INDEX sqlite_autoindex_reporting_hours_1)/);
    const facts = await plan(
      sql`SELECT ${lastFactAt("conversation_resolved")}, ${hasFact("conversation_bot_handoff")}
        FROM conversations c WHERE c.id = 1`,
    );
    expect(facts).toMatch(/SEARCH r USING (COVERING )?INDEX reporting_events_conversation_name/);
    expect(facts).not.toMatch(/SCAN r\b/);
  });

  it("the breakdowns: bucket and inbox-label rollups by primary key, raw edges by index", async () => {
    const pieces = (source: "raw" | "hour" | "year") => [
      { source, span, sign: 1 as const },
      { source, span, sign: -1 as const },
    ];
    for (const grain of ["hour", "year"] as const) {
      for (const q of [
        signedTotals(
          db,
          1,
          "inbox",
          ["first_response:0-1h"],
          pieces(grain),
          undefined,
          FIRST_RESPONSE_BY_BUCKET,
        ),
        pairCounts(db, 1, pieces(grain)),
      ]) {
        const p = await plan(q);
        expect(p).toMatch(
          /SEARCH reporting_rollups USING (PRIMARY KEY|INDEX sqlite_autoindex_reporting_rollups_1)/,
        );
        expect(p).not.toMatch(/SCAN reporting_rollups/);
      }
    }
    for (const q of [
      signedTotals(
        db,
        1,
        "inbox",
        ["first_response:0-1h"],
        pieces("raw"),
        undefined,
        FIRST_RESPONSE_BY_BUCKET,
      ),
      pairCounts(db, 1, pieces("raw")),
    ]) {
      const p = await plan(q);
      expect(p).toMatch(
        /SEARCH reporting_events USING INDEX reporting_events_account_name_created/,
      );
      expect(p).not.toMatch(/SCAN reporting_events/);
    }
  });

  it("the channel summary reads rollups by primary key, and the edges' conversations by a covering index", async () => {
    // Partial hours at both ends, whole hours and whole days between: every arm of the read.
    const p = await plan(statusCountsByInbox(db, 1, { from: span.from + 60, to: span.to - 60 }));
    expect(p.match(/SEARCH conversation_status_rollups USING PRIMARY KEY/g)).toHaveLength(3);
    expect(
      p.match(/SEARCH conversations USING COVERING INDEX conversations_account_created/g),
    ).toHaveLength(2);
    expect(p).not.toMatch(/SCAN (conversations|conversation_status_rollups)/);
  });
});

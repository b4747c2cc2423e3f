import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createDb } from "../../worker/db/client";
import {
  countConversations,
  pageConversations,
} from "../../worker/modules/conversations/queries.list";
import { ftsQuery } from "../../worker/modules/conversations/search";
import { queryPlan } from "../support/query-plan";

const db = createDb(env.DB);

// Conversation search (`q`) keeps its cost on the matches only while FTS5 drives the join: a
// plan that walks messages and runs the MATCH once per row (which an older SQLite picked for
// the help center's same-shaped join) would read the account's whole history.
describe("conversation search query plans", () => {
  const filter = {
    accountId: 1,
    viewer: { kind: "all" } as const,
    match: ftsQuery("refund") ?? "",
  };

  for (const [name, query] of [
    ["count", () => countConversations(db, filter, 7)],
    ["page", () => pageConversations(db, filter, { sort: "latest", limit: 25, offset: 0 })],
  ] as const) {
    it(`${name}: the FTS index leads, messages and conversations are read by key`, async () => {
      const steps = await queryPlan(query());
      const fts = steps.findIndex((s) => /SCAN messages_fts VIRTUAL TABLE INDEX/.test(s));
      const msg = steps.findIndex((s) => /SEARCH messages USING INTEGER PRIMARY KEY/.test(s));
      expect(fts, steps.join("\n")).toBeGreaterThanOrEqual(0);
      expect(msg, steps.join("\n")).toBeGreaterThan(fts);
      expect(steps.join("\n")).toMatch(/SEARCH conversations USING INTEGER PRIMARY KEY/);
      expect(steps.join("\n")).not.toMatch(/SCAN messages\b(?! USING)|SCAN conversations\b/);
    });
  }
});

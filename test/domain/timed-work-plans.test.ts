import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createDb } from "../../worker/db/client";
import { inboxesWithQueue } from "../../worker/modules/assignment/queries";
import { unverifiedIdentifiedRooms } from "../../worker/modules/contacts/queries.sessions";
import { dueForAutoResolve, dueToWake } from "../../worker/modules/schedule/queries";
import { queryPlan } from "../support/query-plan";

const db = createDb(env.DB);

// The every-minute tick must cost what is due, not what exists: every read it makes is an index
// search (the accounts that set auto-resolve through a partial index, then each one's
// conversations by status and last activity), never a scan of conversations.
describe("timed work query plans", () => {
  const due = dueForAutoResolve(1_800_000_000, 1000);
  for (const [name, query, index] of [
    ["auto-resolve", due.all, "conversations_account_status_activity"],
    ["auto-resolve, ignoring waiting", due.notWaiting, "conversations_open_not_waiting"],
    ["snooze wake-up", dueToWake(db, 1_800_000_000, 1000), "conversations_snoozed_until"],
    [
      "assignment queues, after a cursor",
      inboxesWithQueue(db, 40, 1000),
      "conversations_assignment_queue",
    ],
  ] as const) {
    it(`${name}: reads through ${index}`, async () => {
      const steps = (await queryPlan(query)).join("\n");
      expect(steps).toMatch(
        new RegExp(`SEARCH (c|conversations) USING (COVERING )?INDEX ${index}`),
      );
      expect(steps).not.toMatch(/SCAN (conversations|c)\b|SCAN accounts\b(?! USING)/);
    });
  }

  it("the assignment queues' read needs no sort (the partial index is in inbox order)", async () => {
    const steps = (await queryPlan(inboxesWithQueue(db, 40, 1000))).join("\n");
    expect(steps).not.toMatch(/TEMP B-TREE/);
  });

  it("a page of an hmac_mandatory switch's closes reads the inbox's conversations after the page before, unsorted", async () => {
    const steps = (await queryPlan(unverifiedIdentifiedRooms(db, 7, 40, 50))).join("\n");
    expect(steps).toMatch(
      /SEARCH conversations USING (COVERING )?INDEX conversations_inbox \(inbox_id=\? AND rowid>\?\)/,
    );
    expect(steps).not.toMatch(/TEMP B-TREE/);
  });

  it("auto-resolve walks only the accounts that set it (a partial index)", async () => {
    const steps = (await queryPlan(due.all)).join("\n");
    expect(steps).toMatch(/accounts USING (COVERING )?INDEX accounts_auto_resolve/);
  });

  it("auto-resolve from a cursor (and up to it, wrapping around) walks a range of that index, unsorted", async () => {
    const turn = dueForAutoResolve(1_800_000_000, 1000, 40, 90);
    for (const query of [turn.all, turn.notWaiting]) {
      const steps = (await queryPlan(query)).join("\n");
      expect(steps).toMatch(
        /SEARCH accounts USING (COVERING )?INDEX accounts_auto_resolve \(id>\? AND id<\?\)/,
      );
      expect(steps).not.toMatch(/TEMP B-TREE|SCAN (conversations|c)\b/);
    }
  });
});

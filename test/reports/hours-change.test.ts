import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as t from "../../worker/db/schema";
import { createWorld, db } from "../support/factories";
import { api } from "../support/http";

const calendarOf = (inboxId: number) =>
  db().select().from(t.reportingCalendars).where(eq(t.reportingCalendars.inboxId, inboxId)).get();

const everyDay = (open: boolean) =>
  Array.from({ length: 7 }, (_, day) => ({
    day_of_week: day,
    closed_all_day: !open,
    open_all_day: open,
  }));

describe("changing an inbox's working hours", () => {
  it("rebuilds its business-hours calendar at once, not at the next periodic check", async () => {
    const { account, admin, inbox } = await createWorld();
    const patch = (body: unknown) =>
      api(`/api/v1/accounts/${account.id}/inboxes/${inbox.id}`, {
        method: "PATCH",
        token: admin.token,
        body,
      });
    expect(
      (await patch({ working_hours_enabled: true, timezone: "UTC", working_hours: everyDay(true) }))
        .status,
    ).toBe(200);
    const open = await calendarOf(inbox.id);
    expect(open).toBeDefined();
    expect((await patch({ working_hours: everyDay(false) })).status).toBe(200);
    const closed = await calendarOf(inbox.id);
    expect(closed?.signature).not.toBe(open?.signature);
    // A change that does not touch the hours leaves the calendar alone.
    expect((await patch({ name: "Renamed inbox" })).status).toBe(200);
    expect((await calendarOf(inbox.id))?.signature).toBe(closed?.signature);
  });
});

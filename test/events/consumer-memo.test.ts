import { describe, expect, it } from "vitest";
import type { AsyncListener } from "../../worker/events/outbox-types";
import { createWorld } from "../support/factories";
import { createConversationIn } from "../support/factories-conversations";
import { consume, outboxRows } from "../support/factories-webhooks";
import { api } from "../support/http";

/** Three message events of one conversation, committed through the API. */
async function threeEvents() {
  const w = await createWorld();
  const { conversation } = await createConversationIn(w.account.id, w.inbox.id);
  const path = `/api/v1/accounts/${w.account.id}/conversations/${conversation.displayId}/messages`;
  for (const content of ["one", "two", "three"]) {
    expect((await api(path, { token: w.admin.token, body: { content } })).status).toBe(200);
  }
  const rows = await outboxRows(w.account.id);
  return rows.filter((r) => r.name === "message_created").map((r) => r.id);
}

describe("the consumer's per-batch memo", () => {
  it("loads a shared lookup once for every event of a batch, and again in the next batch", async () => {
    const ids = await threeEvents();
    let loads = 0;
    const seen: number[] = [];
    const listener: AsyncListener = async (event, ctx) => {
      const value = await ctx.memo?.(`receivers:${event.accountId}`, async () => ++loads);
      seen.push(value ?? -1);
    };
    const bodies = ids.map((id) => ({ kind: "event" as const, id }));
    const first = await consume(bodies, { listeners: [listener] });
    expect(first.acked).toBe(3);
    expect(loads).toBe(1);
    expect(seen).toEqual([1, 1, 1]);
    await consume(bodies, { listeners: [listener] });
    expect(loads).toBe(2);
  });

  it("does not keep a failed load: a later call in the batch loads again", async () => {
    const ids = await threeEvents();
    let attempts = 0;
    const load = async () => {
      attempts += 1;
      if (attempts === 1) {
        throw new Error("D1 hiccup");
      }
      return attempts;
    };
    const values: number[] = [];
    const listener: AsyncListener = async (_event, ctx) => {
      // Concurrent events share the failing load; each then asks again.
      const value = await ctx.memo?.("flaky", load).catch(() => ctx.memo?.("flaky", load));
      values.push(value ?? -1);
    };
    const result = await consume(
      ids.map((id) => ({ kind: "event" as const, id })),
      { listeners: [listener] },
    );
    expect(result.acked).toBe(3);
    expect(attempts).toBe(2);
    expect(values).toEqual([2, 2, 2]);
  });
});

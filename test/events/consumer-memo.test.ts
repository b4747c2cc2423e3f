import { describe, expect, it } from "vitest";
import { type AsyncListener, batched } from "../../worker/events/outbox-types";
import { createWorld } from "../support/factories";
import { createConversationIn } from "../support/factories-conversations";
import { consume, outboxRows } from "../support/factories-webhooks";
import { api } from "../support/http";
import { postStored } from "../support/posted";

/** Three message events of one conversation, committed through the API. */
async function threeEvents() {
  const w = await createWorld();
  const { conversation } = await createConversationIn(w.account.id, w.inbox.id);
  const path = `/api/v1/accounts/${w.account.id}/conversations/${conversation.displayId}/messages`;
  for (const content of ["one", "two", "three"]) {
    expect((await postStored(path, { token: w.admin.token, body: { content } })).status).toBe(200);
  }
  const rows = await outboxRows(w.account.id);
  return rows.filter((r) => r.name === "message_created").map((r) => r.id);
}

/** A listener reading each event's row through `batched`; a load whose keys `fails` throws. */
function rowsOf(fails: (keys: number[]) => boolean) {
  const loads: number[][] = [];
  const got = new Map<number, string | undefined>();
  const load = async (keys: number[]) => {
    loads.push([...keys]);
    if (fails(keys)) {
      throw new Error("D1 hiccup");
    }
    return new Map(keys.map((k) => [k, `row ${k}`]));
  };
  const listener: AsyncListener = async (event, ctx) => {
    got.set(event.id, await batched(ctx, "rows", event, (e) => e.id, load));
  };
  return { listener, loads, got };
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

  it("batched: one load for every event of the batch, each event given its own row", async () => {
    const ids = await threeEvents();
    const rows = rowsOf(() => false);
    const result = await consume(
      ids.map((id) => ({ kind: "event" as const, id })),
      { listeners: [rows.listener] },
    );
    expect(result.acked).toBe(3);
    expect(rows.loads).toEqual([ids]);
    expect(ids.map((id) => rows.got.get(id))).toEqual(ids.map((id) => `row ${id}`));
  });

  it("batched: when the batch's load fails, each event reads its own row; when that fails, only that event is retried", async () => {
    const ids = await threeEvents();
    const [broken] = ids;
    const rows = rowsOf((keys) => keys.length > 1 || keys[0] === broken);
    const result = await consume(
      ids.map((id) => ({ kind: "event" as const, id })),
      { listeners: [rows.listener] },
    );
    expect(result.acked).toBe(2);
    expect(result.retries.map((r) => r.body)).toEqual([{ kind: "event", id: broken }]);
    const rest = ids.slice(1);
    expect(rest.map((id) => rows.got.get(id))).toEqual(rest.map((id) => `row ${id}`));
    expect(rows.loads[0]).toEqual(ids);
    expect(rows.loads.filter((k) => k.length === 1).sort()).toEqual(ids.map((id) => [id]).sort());
  });

  it("changed(): what was loaded before is loaded again", async () => {
    const ids = await threeEvents();
    let loads = 0;
    const seen: number[] = [];
    const listener: AsyncListener = async (_event, ctx) => {
      seen.push((await ctx.memo?.("k", async () => ++loads)) ?? -1);
      ctx.changed?.();
      seen.push((await ctx.memo?.("k", async () => ++loads)) ?? -1);
    };
    await consume([{ kind: "event", id: ids[0] ?? 0 }], { listeners: [listener] });
    expect(seen).toEqual([1, 2]);
  });
});

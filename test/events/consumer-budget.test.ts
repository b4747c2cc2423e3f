import { createMessageBatch, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Bindings } from "../../worker/env";
import { consumeBatch } from "../../worker/events/consumer";
import type { QueueMessage } from "../../worker/events/queue-messages";
import { createLogger } from "../../worker/lib/logger";
import { countingDb } from "../support/counting-db";
import { createPublicConversation, createPublicWorld, pub } from "../support/factories-public";
import { createWebhook, outboxRows, recordingOutbound } from "../support/factories-webhooks";

const wrangler = Object.values(
  import.meta.glob<string>("../../wrangler.toml", {
    query: "?raw",
    import: "default",
    eager: true,
  }),
)[0] as string;
/** wrangler.toml's max_batch_size for parley-events: what one consumer invocation gets at most. */
const EVENTS_BATCH = Number(
  /queue = "parley-events"\s*\n(?:#.*\n)*max_batch_size = (\d+)/.exec(wrangler)?.[1] ?? Number.NaN,
);

describe("one events-queue invocation stays within D1's per-invocation limit", () => {
  it("a full batch of a contact's messages, with a webhook and templates, makes a bounded number of D1 calls", async () => {
    const w = await createPublicWorld({ greetingEnabled: true, greetingMessage: "Hi there" });
    await createWebhook(w.admin.token, w.account.id, {
      url: "https://hooks.example/parley",
      subscriptions: ["message_created", "conversation_created", "conversation_updated"],
    });
    const events: number[] = [];
    // A few conversations, each with a few messages (a contact may send 30 a minute).
    while (events.length < EVENTS_BATCH) {
      const { path } = await createPublicConversation(w.base, { name: "Ada" });
      for (let i = 0; i < 10 && events.length < EVENTS_BATCH; i++) {
        const res = await pub(`${path}/messages`, { method: "POST", body: { content: `m${i}` } });
        expect(res.status).toBe(200);
        const rows = await outboxRows(w.account.id);
        events.splice(0, events.length, ...rows.map((r) => r.id).slice(0, EVENTS_BATCH));
      }
    }
    const batch = createMessageBatch<QueueMessage>(
      "parley-events",
      events.map((id, n) => ({
        id: `b${n}`,
        timestamp: Date.now(),
        attempts: 1,
        body: { kind: "event", id },
      })),
    );
    const counting = countingDb(env as Bindings);
    await consumeBatch(batch, counting.env, {
      outbound: recordingOutbound().outbound,
      log: createLogger({}, () => {}),
    });
    // Half of the 1,000 D1 queries a Workers Paid invocation may make.
    expect(counting.counts.calls).toBeLessThanOrEqual(500);
    expect(counting.counts.calls).toBeGreaterThan(EVENTS_BATCH);
  });
});

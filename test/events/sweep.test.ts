import { createScheduledController, env } from "cloudflare:test";
import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import worker from "../../worker";
import * as t from "../../worker/db/schema";
import type { Bindings } from "../../worker/env";
import { commit } from "../../worker/events/commit";
import { createDeps } from "../../worker/events/deps";
import type { QueueMessage } from "../../worker/events/queue-messages";
import { redeliverSeconds, sweep } from "../../worker/events/sweep";
import { nowSeconds } from "../../worker/lib/time";
import { createAccount, createInbox, db } from "../support/factories";
import { createConversation } from "../support/factories-conversations";
import { consume, outboxRows } from "../support/factories-webhooks";

/** A queue binding that records what it is sent, or refuses everything. */
function recordingQueue(refuse = false) {
  const sent: QueueMessage[] = [];
  const queue = {
    async send(body: QueueMessage) {
      if (refuse) {
        throw new Error("queue unavailable");
      }
      sent.push(body);
    },
    async sendBatch(messages: Iterable<MessageSendRequest<QueueMessage>>) {
      if (refuse) {
        throw new Error("queue unavailable");
      }
      sent.push(...[...messages].map((m) => m.body));
    },
  };
  return { queue: queue as unknown as Queue<QueueMessage>, sent };
}

const withQueue = (queue: Queue<QueueMessage>): Bindings => ({ ...env, EVENTS: queue });

async function typingEvent(envFor: Bindings) {
  const account = await createAccount();
  const inbox = await createInbox(account.id);
  const conversation = await createConversation(account.id, inbox.id);
  const deps = createDeps(envFor);
  await commit(
    deps,
    [],
    [
      {
        name: "conversation.typing_on",
        accountId: account.id,
        conversation: conversation.id,
        data: { inbox_id: inbox.id, typer: { type: "user", id: 1, name: "A" }, is_private: false },
      },
    ],
  );
  await deps.events.flush();
  return { account, conversation };
}

describe("the cron sweep", () => {
  it("re-sends an outbox row whose queue send failed, and marks it sent", async () => {
    const down = recordingQueue(true);
    const { account } = await typingEvent(withQueue(down.queue));
    const [row] = await outboxRows(account.id);
    expect(row?.sentAt).toBeNull();
    // Too young: its own request may still be relaying it.
    const up = recordingQueue();
    await sweep(withQueue(up.queue), nowSeconds());
    expect(up.sent).not.toContainEqual({ kind: "event", id: row?.id });
    const result = await sweep(withQueue(up.queue), nowSeconds() + 60);
    expect(result.events).toBeGreaterThanOrEqual(1);
    expect(up.sent).toContainEqual({ kind: "event", id: row?.id });
    expect((await outboxRows(account.id))[0]?.sentAt).not.toBeNull();
  });

  it("runs from the Worker's scheduled handler", async () => {
    const down = recordingQueue(true);
    const { account } = await typingEvent(withQueue(down.queue));
    const ids = (await outboxRows(account.id)).map((r) => r.id);
    await db()
      .update(t.eventOutbox)
      .set({ createdAt: nowSeconds() - 120 })
      .where(inArray(t.eventOutbox.id, ids));
    await worker.scheduled(createScheduledController({ cron: "* * * * *" }), env);
    expect((await outboxRows(account.id)).every((r) => r.sentAt !== null)).toBe(true);
  });

  it("relays again an event relayed long ago whose listeners never ran, and never one they ran", async () => {
    const up = recordingQueue();
    const lost = await typingEvent(withQueue(up.queue));
    const ran = await typingEvent(withQueue(up.queue));
    const [lostRow] = await outboxRows(lost.account.id);
    const [ranRow] = await outboxRows(ran.account.id);
    // Both were relayed at once; only `ran`'s queue message reached the consumer.
    expect(up.sent).toContainEqual({ kind: "event", id: lostRow?.id });
    await consume([{ kind: "event", id: ranRow?.id as number }]);
    expect((await outboxRows(ran.account.id))[0]?.doneAt).not.toBeNull();
    expect((await outboxRows(lost.account.id))[0]?.doneAt).toBeNull();
    const wait = redeliverSeconds(env as Bindings);
    const later = recordingQueue();
    // Within the wait the queue may still deliver it: nothing is relayed again.
    await sweep(withQueue(later.queue), nowSeconds() + wait - 60);
    expect(later.sent).not.toContainEqual({ kind: "event", id: lostRow?.id });
    const result = await sweep(withQueue(later.queue), nowSeconds() + wait + 5);
    expect(result.events_redelivered).toBeGreaterThanOrEqual(1);
    expect(later.sent).toContainEqual({ kind: "event", id: lostRow?.id });
    expect(later.sent).not.toContainEqual({ kind: "event", id: ranRow?.id });
    // Relayed again now, so not again at the next minute's sweep.
    const next = recordingQueue();
    await sweep(withQueue(next.queue), nowSeconds() + wait + 65);
    expect(next.sent).not.toContainEqual({ kind: "event", id: lostRow?.id });
    // An event that keeps failing is given up on after a few rounds.
    const giveUp = recordingQueue();
    await sweep(withQueue(giveUp.queue), nowSeconds() + wait * 6);
    expect(giveUp.sent).not.toContainEqual({ kind: "event", id: lostRow?.id });
  });

  it("reads OUTBOX_REDELIVER_SECONDS, within bounds", () => {
    const at = (v?: string) =>
      redeliverSeconds({ ...env, OUTBOX_REDELIVER_SECONDS: v } as Bindings);
    expect(at(undefined)).toBe(1800);
    expect(at("20")).toBe(20);
    expect(at("5")).toBe(1800);
    expect(at("1e9")).toBe(1800);
    expect(at("ten")).toBe(1800);
  });

  it("re-queues deliveries whose queue message was lost, and leaves waiting ones alone", async () => {
    const account = await createAccount();
    const now = nowSeconds();
    const row = (nextAttemptAt: number, targetId: number) => ({
      accountId: account.id,
      targetType: "webhook" as const,
      targetId,
      eventId: 1,
      event: "contact_created",
      deliveryId: crypto.randomUUID(),
      url: "https://lost.example.com/",
      body: "{}",
      status: "retrying" as const,
      nextAttemptAt,
    });
    const [lost, waiting] = await db()
      .insert(t.webhookDeliveries)
      .values([row(now - 3600, 1), row(now + 300, 2)])
      .returning();
    const up = recordingQueue();
    await sweep(withQueue(up.queue), now);
    expect(up.sent).toContainEqual({ kind: "delivery", id: lost?.id });
    expect(up.sent).not.toContainEqual({ kind: "delivery", id: waiting?.id });
    await db().delete(t.webhookDeliveries).where(eq(t.webhookDeliveries.accountId, account.id));
  });
});

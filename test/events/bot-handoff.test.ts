import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as t from "../../worker/db/schema";
import type { OutboxEvent } from "../../worker/events/outbox-types";
import { BOT_FAILURE_ACTIVITY } from "../../worker/modules/webhooks/bot-handoff";
import { DEFAULT_SCHEDULE } from "../../worker/modules/webhooks/retry";
import { attachBot, createAgentBot, db } from "../support/factories";
import { conversationRow, MT } from "../support/factories-conversations";
import {
  conversationByUuid,
  createPublicConversation,
  createPublicWorld,
  pub,
} from "../support/factories-public";
import {
  type Answer,
  attemptOpenDeliveries,
  createWebhook,
  deliveryRows,
  outboxRows,
  processEvents,
  recordingOutbound,
} from "../support/factories-webhooks";
import { api } from "../support/http";

let seq = 0;

/**
 * A visitor's pending conversation in an inbox run by a bot at a public URL that answers as
 * told. `send` posts visitor messages; `pump` runs the new outbox events through the consumer
 * (writing deliveries); `attempt` makes one attempt of each open delivery.
 */
async function botConversation(answer: Answer) {
  const w = await createPublicWorld();
  const bot = await createAgentBot({
    accountId: w.account.id,
    outgoingUrl: `https://bot-${++seq}.example.com/parley`,
  });
  await attachBot(w.account.id, w.inbox.id, bot.id);
  const s = await createPublicConversation(w.base, { name: "Visitor" });
  const conversation = await conversationByUuid(s.conversation.uuid);
  if (!conversation) {
    throw new Error("no conversation");
  }
  expect(conversation.status).toBe("pending");
  const rec = recordingOutbound(answer);
  let seen = 0;
  const pump = async () => {
    const rows = await processEvents(w.account.id, seen, { outbound: rec.outbound });
    seen = rows.at(-1)?.id ?? seen;
    return rows;
  };
  await pump(); // conversation_created: not a bot event
  const send = async (...contents: string[]) => {
    for (const content of contents) {
      const res = await pub(`${s.path}/messages`, { method: "POST", body: { content } });
      expect(res.status).toBe(200);
    }
    await pump();
  };
  return {
    ...w,
    bot,
    rec,
    conversation,
    send,
    pump,
    attempt: () => attemptOpenDeliveries(w.account.id, { outbound: rec.outbound }),
    current: () => conversationRow(conversation.id),
    activities: () =>
      db()
        .select()
        .from(t.messages)
        .where(
          and(
            eq(t.messages.conversationId, conversation.id),
            eq(t.messages.messageType, MT.activity),
          ),
        )
        .all(),
    /** The status changes recorded for the conversation after outbox id `after`. */
    statusEvents: async (after = 0) =>
      (await outboxRows(w.account.id, after)).filter(
        (r) => r.name === "conversation_status_changed" && r.conversationId === conversation.id,
      ),
    lastEventId: async () => (await outboxRows(w.account.id)).at(-1)?.id ?? 0,
  };
}

const answer = (status: number) => () => new Response("no", { status });

describe("a bot that never answers hands its conversation to humans", () => {
  it("opens the pending conversation with an activity message when the bot refuses (no retry)", async () => {
    const c = await botConversation(answer(400));
    await c.send("Hello?");
    const mark = await c.lastEventId();
    expect(await c.attempt()).toEqual({ acked: 1, retries: [] });
    expect((await deliveryRows(c.account.id)).map((d) => [d.targetType, d.status])).toEqual([
      ["agent_bot", "failed"],
    ]);

    const row = await c.current();
    expect(row?.status).toBe("open");
    expect(row?.waitingSince).not.toBeNull();
    const notes = await c.activities();
    expect(notes.map((m) => [m.content, m.private, m.senderType])).toEqual([
      [BOT_FAILURE_ACTIVITY, false, null],
    ]);

    // The change went through the outbox like any other, attributed to the system.
    const changes = await c.statusEvents(mark);
    expect(changes).toHaveLength(1);
    const payload = changes[0]?.payload as OutboxEvent["payload"];
    expect(payload.changed_attributes?.status).toEqual({
      previous_value: "pending",
      current_value: "open",
    });
    expect(payload.performed_by).toEqual({ type: "system", id: null });
    const shown = await api(`/api/v1/accounts/${c.account.id}/conversations/${row?.displayId}`, {
      token: c.admin.token,
    });
    expect(shown.body.status).toBe("open");
  });

  it("keeps the conversation pending while the bot is retried, and opens it after the last attempt", async () => {
    const c = await botConversation(answer(503));
    await c.send("Anyone?");
    for (let i = 0; i < DEFAULT_SCHEDULE.length; i++) {
      expect((await c.attempt()).retries).toHaveLength(1);
      expect((await c.current())?.status).toBe("pending");
    }
    expect(await c.activities()).toEqual([]);
    expect(await c.attempt()).toEqual({ acked: 1, retries: [] });
    expect((await deliveryRows(c.account.id))[0]).toMatchObject({ status: "failed", attempts: 8 });
    expect((await c.current())?.status).toBe("open");
    expect((await c.activities()).map((m) => m.content)).toEqual([BOT_FAILURE_ACTIVITY]);
  });

  it("hands off once when several deliveries of the conversation fail together", async () => {
    const c = await botConversation(answer(400));
    await c.send("one", "two", "three");
    const mark = await c.lastEventId();
    // The three failures are one queue batch, attempted side by side.
    expect(await c.attempt()).toEqual({ acked: 3, retries: [] });
    expect((await c.current())?.status).toBe("open");
    expect(await c.activities()).toHaveLength(1);
    expect(await c.statusEvents(mark)).toHaveLength(1);

    // The bot is told about the handoff too; those deliveries fail as well and change nothing.
    await c.pump();
    const told = (await deliveryRows(c.account.id)).filter((d) => d.attempts === 0);
    expect(told.map((d) => d.event).sort()).toEqual([
      "conversation_opened",
      "conversation_status_changed",
    ]);
    await c.attempt();
    expect(await c.activities()).toHaveLength(1);
    expect(await c.statusEvents(mark)).toHaveLength(1);
  });

  it("adds nothing when a failure is replayed after the handoff", async () => {
    const c = await botConversation(answer(400));
    await c.send("Hello?");
    await c.attempt();
    const mark = await c.lastEventId();
    const [failed] = await deliveryRows(c.account.id);
    // Replayed: queued again from the start, as a redelivery does.
    await db()
      .update(t.webhookDeliveries)
      .set({ status: "pending", attempts: 0, nextAttemptAt: 0 })
      .where(eq(t.webhookDeliveries.id, failed?.id ?? 0));
    expect(await c.attempt()).toEqual({ acked: 1, retries: [] });
    expect((await deliveryRows(c.account.id))[0]?.status).toBe("failed");
    expect(await c.activities()).toHaveLength(1);
    expect(await outboxRows(c.account.id, mark)).toEqual([]);
  });
});

describe("when there is nothing to hand off", () => {
  it("leaves a conversation an agent already opened alone", async () => {
    const c = await botConversation(answer(400));
    await c.send("Hello?");
    const opened = await api(
      `/api/v1/accounts/${c.account.id}/conversations/${c.conversation.displayId}/toggle_status`,
      { method: "POST", token: c.admin.token, body: { status: "open" } },
    );
    expect(opened.status).toBe(200);
    const mark = await c.lastEventId();
    await c.attempt();
    expect((await deliveryRows(c.account.id))[0]?.status).toBe("failed");
    // Only the admin's own reopen is noted (issue 15's activity messages); no handoff note.
    expect((await c.activities()).map((a) => a.content)).toEqual([
      `Conversation was reopened by ${c.admin.name}`,
    ]);
    expect(await c.statusEvents(mark)).toEqual([]);
  });

  it("does nothing while the bot answers, nor when an account webhook fails", async () => {
    const c = await botConversation((req) =>
      req.url.startsWith("https://hooks.example.com/") ? answer(400)() : new Response("ok"),
    );
    await createWebhook(c.admin.token, c.account.id, {
      url: `https://hooks.example.com/${seq}`,
      subscriptions: ["message_created"],
    });
    await c.send("Hello?");
    expect(await c.attempt()).toEqual({ acked: 2, retries: [] });
    const byTarget = Object.fromEntries(
      (await deliveryRows(c.account.id)).map((d) => [d.targetType, d.status]),
    );
    expect(byTarget).toEqual({ agent_bot: "succeeded", webhook: "failed" });
    expect((await c.current())?.status).toBe("pending");
    expect(await c.activities()).toEqual([]);
  });
});

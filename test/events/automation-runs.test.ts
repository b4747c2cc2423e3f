import { env } from "cloudflare:test";
import { and, eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as t from "../../worker/db/schema";
import type { AsyncListener } from "../../worker/events/outbox-types";
import { sweep } from "../../worker/events/sweep";
import { nowSeconds } from "../../worker/lib/time";
import { createAutomationListener } from "../../worker/modules/automation-rules/listener";
import { createTeam, createWorld, db } from "../support/factories";
import { act, cond, createRule, labelsOf, recordingMailer } from "../support/factories-automation";
import { createContact, MT } from "../support/factories-conversations";
import { consume, outboxRows } from "../support/factories-webhooks";
import { api } from "../support/http";

/** An account whose rule answers, labels and emails a team on every new conversation. */
async function world() {
  const w = await createWorld();
  const team = await createTeam(w.account.id);
  await db().insert(t.teamMembers).values({ teamId: team.id, userId: w.agent.id });
  const rule = await createRule(w.account.id, {
    conditions: [cond("inbox_id", "equal_to", [w.inbox.id])],
    actions: [
      act("send_message", ["Thanks, we are on it"]),
      act("add_label", ["triage"]),
      act("send_email_to_team", [{ team_ids: [team.id], message: "New conversation" }]),
    ],
  });
  const { sent, mailer } = recordingMailer();
  const automation = createAutomationListener({ mailer: () => mailer, log: () => {} });
  /** A new conversation through the API; its conversation_created outbox row. */
  const newConversation = async () => {
    const before = (await outboxRows(w.account.id)).at(-1)?.id ?? 0;
    const contact = await createContact(w.account.id);
    const res = await api(`/api/v1/accounts/${w.account.id}/conversations`, {
      method: "POST",
      token: w.admin.token,
      body: { inbox_id: w.inbox.id, contact_id: contact.id },
    });
    expect(res.status).toBe(200);
    const created = (await outboxRows(w.account.id, before)).find(
      (r) => r.name === "conversation_created",
    );
    if (!created?.conversationId) {
      throw new Error("no conversation_created event");
    }
    return { eventId: created.id, conversationId: created.conversationId };
  };
  return { ...w, rule, sent, automation, newConversation };
}

const repliesOf = (conversationId: number) =>
  db()
    .select()
    .from(t.messages)
    .where(
      and(eq(t.messages.conversationId, conversationId), eq(t.messages.messageType, MT.outgoing)),
    )
    .all();

const runsOf = (eventIds: number[]) =>
  db().select().from(t.automationRuns).where(inArray(t.automationRuns.eventId, eventIds)).all();

const failing: AsyncListener = async () => {
  throw new Error("receiver lookup failed");
};

describe("automation rules run once per event", () => {
  it("performs each action once when the queue hands the same event over twice", async () => {
    const w = await world();
    const { eventId, conversationId } = await w.newConversation();
    const message = { kind: "event" as const, id: eventId };
    await consume([message], { listeners: [w.automation] });
    await consume([message], { listeners: [w.automation] });

    expect((await repliesOf(conversationId)).map((m) => m.content)).toEqual([
      "Thanks, we are on it",
    ]);
    expect(await labelsOf(conversationId)).toEqual(["triage"]);
    expect(w.sent.map((m) => m.to)).toEqual([[w.agent.email]]);
    expect(await runsOf([eventId])).toEqual([
      { eventId, ruleId: w.rule.id, createdAt: expect.any(Number) },
    ]);
  });

  it("does not repeat the rule when another listener fails and the event is retried", async () => {
    const w = await world();
    const { eventId, conversationId } = await w.newConversation();
    const message = { kind: "event" as const, id: eventId };
    const first = await consume([message], { listeners: [w.automation, failing] });
    expect(first.retries).toHaveLength(1);
    const again = await consume([message], { listeners: [w.automation] });
    expect(again).toEqual({ acked: 1, retries: [] });
    expect(await repliesOf(conversationId)).toHaveLength(1);
    expect(w.sent).toHaveLength(1);
  });

  it("runs the rule again for another event, and records no run for a rule that did not match", async () => {
    const w = await world();
    const other = await createRule(w.account.id, {
      conditions: [cond("inbox_id", "equal_to", [w.inbox.id + 100_000])],
      actions: [act("add_label", ["never"])],
    });
    const a = await w.newConversation();
    const b = await w.newConversation();
    await consume(
      [a, b].map((e) => ({ kind: "event" as const, id: e.eventId })),
      { listeners: [w.automation] },
    );
    expect(await repliesOf(a.conversationId)).toHaveLength(1);
    expect(await repliesOf(b.conversationId)).toHaveLength(1);
    expect(w.sent).toHaveLength(2);
    const runs = await runsOf([a.eventId, b.eventId]);
    expect(runs.map((r) => r.ruleId)).toEqual([w.rule.id, w.rule.id]);
    expect(runs.some((r) => r.ruleId === other.id)).toBe(false);
  });
});

describe("pruning automation runs", () => {
  it("drops runs as old as the outbox retention with the cron sweep, and keeps recent ones", async () => {
    const now = nowSeconds();
    const week = 7 * 24 * 3600;
    const ids = [9_000_001, 9_000_002, 9_000_003];
    await db()
      .insert(t.automationRuns)
      .values([
        { eventId: ids[0] as number, ruleId: 1, createdAt: now - week - 60 },
        { eventId: ids[1] as number, ruleId: 1, createdAt: now - week },
        { eventId: ids[2] as number, ruleId: 1, createdAt: now - week + 3600 },
      ]);
    await sweep(env, now);
    expect((await runsOf(ids)).map((r) => r.eventId)).toEqual([ids[2]]);
  });
});

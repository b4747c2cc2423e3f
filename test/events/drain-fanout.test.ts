import { env } from "cloudflare:test";
import { and, eq, isNotNull } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as t from "../../worker/db/schema";
import type { Bindings, DrainMessage } from "../../worker/env";
import { nowSeconds } from "../../worker/lib/time";
import {
  DRAIN_INBOXES,
  DRAIN_PER_INBOX,
  drainQueues,
} from "../../worker/modules/assignment/fanout";
import { countingDb } from "../support/counting-db";
import { addInboxMember, createAccount, createAgent, createInbox, db } from "../support/factories";
import { createConversation } from "../support/factories-conversations";
import { deliverTimed, recordingTimed, TIMED_BATCH_MESSAGES } from "../support/timed";

// The cron's assignment drain only finds the inboxes with a waiting queue and fans them out on
// the TIMED queue; the consumer drains a few conversations of each (docs/automation.md).

/** `n` auto-assigning inboxes with `queued` waiting conversations each, and `agents` online. */
async function waitingInboxes(n: number, queued: number, agents: boolean) {
  const account = await createAccount();
  const agent = await createAgent(account.id);
  await db()
    .update(t.accountUsers)
    .set({ autoOffline: !agents, availability: agents ? "online" : "offline" })
    .where(and(eq(t.accountUsers.accountId, account.id), eq(t.accountUsers.userId, agent.id)));
  const inboxes: number[] = [];
  for (let i = 0; i < n; i++) {
    const inbox = await createInbox(account.id, { enableAutoAssignment: true });
    await addInboxMember(inbox.id, agent.id);
    for (let j = 0; j < queued; j++) {
      await createConversation(account.id, inbox.id, { assignmentQueuedAt: nowSeconds() - 60 });
    }
    inboxes.push(inbox.id);
  }
  return { agent, inboxes };
}

const rowsOf = (inboxId: number) =>
  db().select().from(t.conversations).where(eq(t.conversations.inboxId, inboxId)).all();

const stillQueued = async (inboxId: number) =>
  (
    await db()
      .select()
      .from(t.conversations)
      .where(
        and(eq(t.conversations.inboxId, inboxId), isNotNull(t.conversations.assignmentQueuedAt)),
      )
      .all()
  ).length;

describe("the cron's assignment drain fans out", () => {
  it("the tick makes the same few D1 calls however many inboxes wait, and assigns nothing itself", async () => {
    const { inboxes } = await waitingInboxes(40, 1, false);
    const counting = countingDb(env as Bindings);
    const recorded = recordingTimed(counting.env);
    expect(await drainQueues(recorded.env, nowSeconds())).toBeGreaterThanOrEqual(40);
    // The cursor's read, one or two reads of the partial index (from the cursor, then wrapping
    // around), the cursor's write: before the fan-out, ~4 calls per waiting inbox (past 1,000
    // at ~250).
    expect(counting.counts.calls).toBeLessThanOrEqual(4);
    expect(recorded.sent).toEqual([]);
    expect(recorded.drains.every((m) => m.inboxes.length <= DRAIN_INBOXES)).toBe(true);
    const sent = recorded.drains.flatMap((m) => m.inboxes);
    expect(inboxes.filter((id) => !sent.includes(id))).toEqual([]);
  });

  it("the consumer assigns a few of each inbox's queue and sends on the inboxes that may have more", async () => {
    // One inbox with exactly DRAIN_PER_INBOX waiting (drained, but it may have more), one with 1.
    const { agent, inboxes } = await waitingInboxes(1, DRAIN_PER_INBOX, true);
    const [full] = inboxes as [number];
    const third = await waitingInboxes(1, 1, true);
    const message: DrainMessage = {
      kind: "timed",
      task: "drain",
      at: nowSeconds(),
      inboxes: [full, ...third.inboxes],
    };
    const recorded = recordingTimed();
    await deliverTimed([message], recorded.env);
    expect((await rowsOf(full)).filter((r) => r.assigneeId === agent.id)).toHaveLength(
      DRAIN_PER_INBOX,
    );
    expect(await stillQueued(third.inboxes[0] as number)).toBe(0);
    // Only the inbox that used its whole share is sent on, with the tick's clock.
    expect(recorded.drains).toEqual([{ ...message, inboxes: [full] }]);
    expect(recorded.sent).toEqual([]);
  });

  it("a queue headed by conversations no longer waiting is sent on after they leave it, so the one behind is assigned", async () => {
    // DRAIN_PER_INBOX queued conversations resolved meanwhile, older than one still waiting.
    const { agent, inboxes } = await waitingInboxes(1, 1, true);
    const [inbox] = inboxes as [number];
    const account = (await rowsOf(inbox))[0]?.accountId as number;
    for (let i = 0; i < DRAIN_PER_INBOX; i++) {
      await createConversation(account, inbox, {
        status: "resolved",
        assignmentQueuedAt: nowSeconds() - 600,
      });
    }
    const first = recordingTimed();
    await deliverTimed([{ kind: "timed", task: "drain", at: nowSeconds(), inboxes }], first.env);
    // The round looked at its whole share (all removed, none assigned): the inbox goes on.
    expect(await stillQueued(inbox)).toBe(1);
    expect(first.drains.flatMap((m) => m.inboxes)).toEqual([inbox]);
    const second = recordingTimed();
    await deliverTimed(first.drains, second.env);
    expect(await stillQueued(inbox)).toBe(0);
    expect((await rowsOf(inbox)).filter((r) => r.assigneeId === agent.id)).toHaveLength(1);
    expect(second.drains).toEqual([]);
  });

  it("a backlog drains in rounds of DRAIN_PER_INBOX, each round's message the next one", async () => {
    const { agent, inboxes } = await waitingInboxes(1, DRAIN_PER_INBOX * 2 + 1, true);
    const [inbox] = inboxes as [number];
    let pending: DrainMessage[] = [{ kind: "timed", task: "drain", at: nowSeconds(), inboxes }];
    let rounds = 0;
    while (pending.length > 0) {
      const recorded = recordingTimed();
      await deliverTimed(pending, recorded.env);
      pending = recorded.drains;
      rounds++;
      expect(rounds).toBeLessThanOrEqual(3);
    }
    expect(rounds).toBe(3);
    expect(await stillQueued(inbox)).toBe(0);
    expect((await rowsOf(inbox)).every((r) => r.assigneeId === agent.id)).toBe(true);
  });

  it("one consumer invocation (a full batch of drains) makes a bounded number of D1 calls", async () => {
    const n = DRAIN_INBOXES * TIMED_BATCH_MESSAGES;
    const { agent, inboxes } = await waitingInboxes(n, DRAIN_PER_INBOX + 2, true);
    const at = nowSeconds();
    const messages: DrainMessage[] = [];
    for (let i = 0; i < inboxes.length; i += DRAIN_INBOXES) {
      messages.push({
        kind: "timed",
        task: "drain",
        at,
        inboxes: inboxes.slice(i, i + DRAIN_INBOXES),
      });
    }
    expect(messages).toHaveLength(TIMED_BATCH_MESSAGES);
    const counting = countingDb(recordingTimed().env);
    await deliverTimed(messages, counting.env);
    for (const id of inboxes) {
      const assigned = (await rowsOf(id)).filter((r) => r.assigneeId === agent.id);
      expect(assigned).toHaveLength(DRAIN_PER_INBOX);
    }
    // Half the 1,000 D1 queries a Paid invocation may make.
    expect(counting.counts.calls).toBeLessThanOrEqual(500);
  });

  it("with more inboxes waiting than a tick takes, the ticks take turns: each is sent within a few ticks", async () => {
    // Nobody online: these queues stay as they are tick after tick, as stuck queues do.
    const { inboxes } = await waitingInboxes(7, 1, false);
    const limit = 3;
    // Other tests' inboxes may wait in the same database: the bound counts them too.
    const waiting = new Set(
      (
        await db()
          .select({ id: t.conversations.inboxId })
          .from(t.conversations)
          .where(isNotNull(t.conversations.assignmentQueuedAt))
          .all()
      ).map((r) => r.id),
    ).size;
    const bound = Math.ceil(waiting / limit) + 1;
    const seen = new Map<number, number>();
    for (let tickNo = 1; tickNo <= bound; tickNo++) {
      const recorded = recordingTimed();
      // Each tick stays within its cap.
      expect(await drainQueues(recorded.env, nowSeconds(), limit)).toBeLessThanOrEqual(limit);
      for (const id of recorded.drains.flatMap((m) => m.inboxes)) {
        seen.set(id, seen.get(id) ?? tickNo);
      }
    }
    // Before the cursor, the same lowest 3 inbox ids came back every tick and 4 of 7 never did.
    expect(inboxes.filter((id) => !seen.has(id))).toEqual([]);
  });

  it("an inbox whose auto-assignment was switched off stops waiting: its queue is emptied, not sent every tick", async () => {
    const { inboxes } = await waitingInboxes(1, 3, true);
    const [inbox] = inboxes as [number];
    await db()
      .update(t.inboxes)
      .set({ enableAutoAssignment: false })
      .where(eq(t.inboxes.id, inbox));
    const message: DrainMessage = { kind: "timed", task: "drain", at: nowSeconds(), inboxes };
    const recorded = recordingTimed();
    await deliverTimed([message], recorded.env);
    expect(await stillQueued(inbox)).toBe(0);
    // Nobody was assigned, and nothing is sent on.
    expect((await rowsOf(inbox)).every((r) => r.assigneeId === null)).toBe(true);
    expect(recorded.drains).toEqual([]);
    const tick = recordingTimed();
    await drainQueues(tick.env, nowSeconds());
    expect(tick.drains.flatMap((m) => m.inboxes)).not.toContain(inbox);
  });
});

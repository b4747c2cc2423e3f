import { env } from "cloudflare:test";
import { and, eq, isNotNull } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as t from "../../worker/db/schema";
import type { Bindings, TimedQueueMessage } from "../../worker/env";
import { createDeps } from "../../worker/events/deps";
import { nowSeconds } from "../../worker/lib/time";
import { availabilityMoved, HOOK_DRAIN } from "../../worker/modules/assignment/hooks";
import { closeEndedSessions } from "../../worker/modules/contacts/sessions";
import { countingDb } from "../support/counting-db";
import { addInboxMember, createAccount, createAgent, createInbox, db } from "../support/factories";
import { createConversation } from "../support/factories-conversations";
import { createPublicWorld, pub } from "../support/factories-public";
import { deliverTimed, recordingTimed } from "../support/timed";
import { type LiveSocket, openSocket } from "../support/ws";

// Work a hook or a request triggers is bounded per invocation; the rest goes on in the TIMED
// queue (docs/automation.md "At scale").

/** An offline agent, member of `inboxes` auto-assigning inboxes with `queued` waiting each. */
async function backlog(inboxes: number, queued: number) {
  const account = await createAccount();
  const agent = await createAgent(account.id);
  const ids: number[] = [];
  for (let i = 0; i < inboxes; i++) {
    const inbox = await createInbox(account.id, { enableAutoAssignment: true });
    await addInboxMember(inbox.id, agent.id);
    for (let j = 0; j < queued; j++) {
      await createConversation(account.id, inbox.id, { assignmentQueuedAt: nowSeconds() - 60 });
    }
    ids.push(inbox.id);
  }
  return { account, agent, inboxes: ids };
}

const assignedTo = async (inboxes: number[], userId: number) =>
  (
    await db().select().from(t.conversations).where(eq(t.conversations.assigneeId, userId)).all()
  ).filter((r) => inboxes.includes(r.inboxId)).length;

const stillQueued = async (inboxes: number[]) =>
  (
    await db()
      .select()
      .from(t.conversations)
      .where(isNotNull(t.conversations.assignmentQueuedAt))
      .all()
  ).filter((r) => inboxes.includes(r.inboxId)).length;

/** The agent chooses online (no socket needed: auto_offline off), as the profile API does. */
async function comesOnline(accountId: number, userId: number) {
  await db()
    .update(t.accountUsers)
    .set({ availability: "online", autoOffline: false })
    .where(and(eq(t.accountUsers.accountId, accountId), eq(t.accountUsers.userId, userId)));
  const counting = countingDb(env as Bindings);
  const recorded = recordingTimed(counting.env);
  await availabilityMoved(recorded.env, accountId, userId, "online");
  return { recorded, calls: counting.counts.calls };
}

/** Delivers what was sent, then what that sent, until nothing more is sent; answers the rounds. */
async function untilQuiet(first: TimedQueueMessage[]) {
  let pending = first;
  let rounds = 0;
  while (pending.length > 0 && rounds < 50) {
    const recorded = recordingTimed();
    await deliverTimed(pending, recorded.env);
    pending = [...recorded.sent, ...recorded.drains, ...recorded.closes];
    rounds++;
  }
  return rounds;
}

describe("a hook's assignment drain is bounded; the queue does the rest", () => {
  it("an agent coming online with a long queue: HOOK_DRAIN at once, then all of it", async () => {
    const { account, agent, inboxes } = await backlog(1, HOOK_DRAIN + 5);
    const { recorded, calls } = await comesOnline(account.id, agent.id);
    expect(await assignedTo(inboxes, agent.id)).toBe(HOOK_DRAIN);
    // Before: the hook assigned up to 100 conversations of each inbox itself (~8 D1 calls each).
    expect(calls).toBeLessThanOrEqual(HOOK_DRAIN * 12 + 10);
    expect(recorded.drains.flatMap((m) => m.inboxes)).toEqual(inboxes);
    expect(await untilQuiet(recorded.drains)).toBeLessThan(50);
    expect(await assignedTo(inboxes, agent.id)).toBe(HOOK_DRAIN + 5);
    expect(await stillQueued(inboxes)).toBe(0);
  });

  it("an agent of many inboxes: at most HOOK_DRAIN inboxes looked at in the hook, every queue drained after", async () => {
    const { account, agent, inboxes } = await backlog(HOOK_DRAIN + 3, 2);
    const { recorded } = await comesOnline(account.id, agent.id);
    expect(await assignedTo(inboxes, agent.id)).toBeLessThanOrEqual(HOOK_DRAIN);
    const sent = recorded.drains.flatMap((m) => m.inboxes);
    // The inboxes not reached are all sent on.
    expect(inboxes.slice(HOOK_DRAIN).every((id) => sent.includes(id))).toBe(true);
    expect(await untilQuiet(recorded.drains)).toBeLessThan(50);
    expect(await assignedTo(inboxes, agent.id)).toBe(inboxes.length * 2);
    expect(await stillQueued(inboxes)).toBe(0);
  });
});

describe("switching hmac_mandatory on closes ended sessions a page at a time", () => {
  it("more rooms than a page: the first page at once, the rest through the TIMED queue", async () => {
    const w = await createPublicWorld();
    const sockets: LiveSocket[] = [];
    for (let i = 0; i < 5; i++) {
      const contact = await pub(`${w.base}/contacts`, {
        method: "POST",
        body: { identifier: `self-${i}-${crypto.randomUUID()}` },
      });
      const source = contact.body.source_id;
      const conversation = await pub(`${w.base}/contacts/${source}/conversations`, {
        method: "POST",
      });
      const socket = await openSocket(
        `/public/api/v1/live?pubsub_token=${contact.body.pubsub_token}&conversation_id=${conversation.body.id}`,
      );
      await socket.next("ready");
      sockets.push(socket);
    }
    const [inbox] = await db()
      .update(t.inboxes)
      .set({ hmacMandatory: true })
      .where(eq(t.inboxes.id, w.inbox.id))
      .returning();
    const recorded = recordingTimed();
    const deps = createDeps(recorded.env);
    expect(await closeEndedSessions(deps, inbox as t.InboxRow, 0, 2)).toBe(2);
    expect(recorded.closes).toHaveLength(1);
    expect(recorded.closes[0]).toMatchObject({ task: "close_sessions", inboxId: w.inbox.id });
    // The first two rooms (by conversation id) are closed by the call itself.
    for (const socket of sockets.slice(0, 2)) {
      expect(await socket.closed).toMatchObject({ code: 4403 });
    }
    expect(await untilQuiet(recorded.closes)).toBe(1);
    for (const socket of sockets.slice(2)) {
      expect(await socket.closed).toMatchObject({ code: 4403 });
    }
  });

  it("a continuation finds the inbox switched off again: it closes nothing", async () => {
    const w = await createPublicWorld();
    const contact = await pub(`${w.base}/contacts`, {
      method: "POST",
      body: { identifier: `self-${crypto.randomUUID()}` },
    });
    const conversation = await pub(`${w.base}/contacts/${contact.body.source_id}/conversations`, {
      method: "POST",
    });
    const socket = await openSocket(
      `/public/api/v1/live?pubsub_token=${contact.body.pubsub_token}&conversation_id=${conversation.body.id}`,
    );
    await socket.next("ready");
    await deliverTimed([
      { kind: "timed", task: "close_sessions", at: nowSeconds(), inboxId: w.inbox.id, after: 0 },
    ]);
    // Still open: a frame sent to it after the delivery arrives.
    const res = await pub(
      `${w.base}/contacts/${contact.body.source_id}/conversations/${conversation.body.id}/messages`,
      { method: "POST", body: { content: "still here" } },
    );
    expect(res.status).toBe(200);
    expect((await socket.next("message.created")).data.content).toBe("still here");
    socket.close();
  });
});

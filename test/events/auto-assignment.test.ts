import { env } from "cloudflare:test";
import { and, asc, eq, isNotNull } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as t from "../../worker/db/schema";
import { nowSeconds } from "../../worker/lib/time";
import { drainQueues } from "../../worker/modules/assignment/fanout";
import { addInboxMember, createAgent, db, type TestUser } from "../support/factories";
import { createPublicConversation, createPublicWorld } from "../support/factories-public";
import { api } from "../support/http";
import { tick } from "../support/timed";
import { openSocket } from "../support/ws";

/** An auto-assigning inbox with `n` member agents; `online` ones never go offline. */
async function desk(n: number, opts: { online?: boolean; cap?: number } = {}) {
  const w = await createPublicWorld({
    enableAutoAssignment: true,
    autoAssignmentConfig: opts.cap ? { max_assignment_limit: opts.cap } : {},
  });
  const agents = [];
  for (let i = 0; i < n; i++) {
    const agent = await createAgent(w.account.id);
    await addInboxMember(w.inbox.id, agent.id);
    if (opts.online ?? true) {
      await setAutoOffline(w.account.id, agent.id, false);
    }
    agents.push(agent);
  }
  return { ...w, agents };
}

const setAutoOffline = (accountId: number, userId: number, autoOffline: boolean) =>
  db()
    .update(t.accountUsers)
    .set({ autoOffline })
    .where(and(eq(t.accountUsers.accountId, accountId), eq(t.accountUsers.userId, userId)));

const rowsOf = (inboxId: number) =>
  db()
    .select()
    .from(t.conversations)
    .where(eq(t.conversations.inboxId, inboxId))
    .orderBy(asc(t.conversations.id))
    .all();

/** The next presence.update about `userId` (the watcher's own arrival is one too). */
async function presenceOf(socket: Awaited<ReturnType<typeof openSocket>>, userId: number) {
  for (;;) {
    const f = await socket.next("presence.update", 5000);
    if (String(userId) in f.data.users) {
      return f.data.users[userId];
    }
  }
}

/** The conversation_assigned reporting facts of an inbox, as [conversation, user]. */
const assignedFacts = async (inboxId: number) =>
  (
    await db()
      .select()
      .from(t.reportingEvents)
      .where(
        and(
          eq(t.reportingEvents.inboxId, inboxId),
          eq(t.reportingEvents.name, "conversation_assigned"),
        ),
      )
      .orderBy(asc(t.reportingEvents.id))
      .all()
  ).map((r) => [r.conversationId, r.userId]);

const notesOf = (conversationId: number) =>
  db()
    .select({ content: t.messages.content })
    .from(t.messages)
    .where(and(eq(t.messages.conversationId, conversationId), eq(t.messages.messageType, 2)))
    .all();

describe("auto-assignment (inbox enable_auto_assignment)", () => {
  it("assigns each new conversation to an online member, balanced, with the note and events", async () => {
    const w = await desk(2);
    const [a, b] = w.agents as [TestUser, TestUser];
    for (let i = 0; i < 4; i++) {
      await createPublicConversation(w.base);
    }
    const rows = await rowsOf(w.inbox.id);
    expect(rows.map((r) => r.assigneeId)).toEqual([a.id, b.id, a.id, b.id]);
    expect(await notesOf(rows[0]?.id ?? 0)).toEqual([
      { content: `Assigned to ${a.name} by system` },
    ]);
    const updated = await db()
      .select()
      .from(t.eventOutbox)
      .where(
        and(
          eq(t.eventOutbox.conversationId, rows[0]?.id ?? 0),
          eq(t.eventOutbox.name, "conversation_updated"),
        ),
      )
      .all();
    expect(updated[0]?.payload).toMatchObject({
      performed_by: { type: "system" },
      changed_attributes: { assignee_id: { previous_value: null, current_value: a.id } },
    });
    // Counted in the reports as a manual assignment is, once each.
    expect(await assignedFacts(w.inbox.id)).toEqual(rows.map((r) => [r.id, r.assigneeId]));
  });

  it("never assigns members who are offline, busy, or not in the inbox; leaves other inboxes alone", async () => {
    const w = await desk(0);
    const busy = await createAgent(w.account.id);
    await addInboxMember(w.inbox.id, busy.id);
    await setAutoOffline(w.account.id, busy.id, false);
    await db()
      .update(t.accountUsers)
      .set({ availability: "busy" })
      .where(eq(t.accountUsers.userId, busy.id));
    const offline = await createAgent(w.account.id); // auto_offline, no socket
    await addInboxMember(w.inbox.id, offline.id);
    const outsider = await createAgent(w.account.id);
    await setAutoOffline(w.account.id, outsider.id, false);
    await createPublicConversation(w.base);
    const [row] = await rowsOf(w.inbox.id);
    expect(row?.assigneeId).toBeNull();
    expect(row?.assignmentQueuedAt).not.toBeNull();
    const off = await createPublicWorld({ enableAutoAssignment: false });
    const agent = await createAgent(off.account.id);
    await addInboxMember(off.inbox.id, agent.id);
    await setAutoOffline(off.account.id, agent.id, false);
    await createPublicConversation(off.base);
    const [manual] = await rowsOf(off.inbox.id);
    expect(manual).toMatchObject({ assigneeId: null, assignmentQueuedAt: null });
  });

  it("50 concurrent creations never take an agent past max_assignment_limit; the rest queue, then move oldest first as slots free", async () => {
    const w = await desk(1, { cap: 5 });
    const [agent] = w.agents as [TestUser];
    await Promise.all(Array.from({ length: 50 }, () => createPublicConversation(w.base)));
    const rows = await rowsOf(w.inbox.id);
    expect(rows).toHaveLength(50);
    expect(rows.filter((r) => r.assigneeId === agent.id)).toHaveLength(5);
    const queue = rows
      .filter((r) => r.assigneeId === null)
      .sort((x, y) => (x.assignmentQueuedAt ?? 0) - (y.assignmentQueuedAt ?? 0) || x.id - y.id);
    expect(queue).toHaveLength(45);
    expect(queue.every((r) => r.assignmentQueuedAt !== null)).toBe(true);
    // One reporting fact per assignment that happened, none for the tries that lost the race.
    expect(await assignedFacts(w.inbox.id)).toHaveLength(5);
    // Resolving one frees a slot: the oldest waiting conversation takes it at once.
    const first = rows.find((r) => r.assigneeId === agent.id);
    const res = await api(
      `/api/v1/accounts/${w.account.id}/conversations/${first?.displayId}/toggle_status`,
      { method: "POST", token: w.admin.token, body: { status: "resolved" } },
    );
    expect(res.status).toBe(200);
    const after = await rowsOf(w.inbox.id);
    const open = after.filter((r) => r.assigneeId === agent.id && r.status === "open");
    expect(open).toHaveLength(5);
    expect(after.find((r) => r.id === queue[0]?.id)).toMatchObject({
      assigneeId: agent.id,
      assignmentQueuedAt: null,
    });
    expect(after.find((r) => r.id === queue[1]?.id)?.assigneeId).toBeNull();
    expect((await assignedFacts(w.inbox.id)).at(-1)).toEqual([queue[0]?.id, agent.id]);
    expect(await assignedFacts(w.inbox.id)).toHaveLength(6);
  }, 120_000);

  it("a waiting queue goes to an agent as they come online (socket), oldest first; offline again after the grace", async () => {
    const w = await desk(1, { online: false });
    const [agent] = w.agents as [TestUser];
    await createPublicConversation(w.base);
    await createPublicConversation(w.base);
    expect((await rowsOf(w.inbox.id)).map((r) => r.assigneeId)).toEqual([null, null]);
    const watcher = await openSocket(`/api/v1/accounts/${w.account.id}/live`, {
      api_access_token: w.admin.token,
    });
    await watcher.next("ready");
    const feed = await openSocket(`/api/v1/accounts/${w.account.id}/live`, {
      api_access_token: agent.token,
    });
    await feed.next("ready");
    expect(await presenceOf(watcher, agent.id)).toBe("online");
    const agentsList = await api(`/api/v1/accounts/${w.account.id}/agents`, {
      token: w.admin.token,
    });
    expect(agentsList.body.find((a: { id: number }) => a.id === agent.id)).toMatchObject({
      availability_status: "online",
    });
    const publicInbox = await api(`/public/api/v1/inboxes/${w.base}`);
    expect(publicInbox.body.available_agents[0]?.availability_status).toBe("online");
    expect((await rowsOf(w.inbox.id)).map((r) => r.assigneeId)).toEqual([agent.id, agent.id]);
    // Gone: offline after the (test-shortened) grace, and new conversations wait again.
    feed.close();
    expect(await presenceOf(watcher, agent.id)).toBe("offline");
    await createPublicConversation(w.base);
    const rows = await rowsOf(w.inbox.id);
    expect(rows[2]).toMatchObject({ assigneeId: null });
    expect(rows[2]?.assignmentQueuedAt).not.toBeNull();
    watcher.close();
  });

  it("the cron drains queues whose agents came back without a presence change (auto_offline off)", async () => {
    const w = await desk(1, { online: false });
    const [agent] = w.agents as [TestUser];
    await createPublicConversation(w.base);
    await setAutoOffline(w.account.id, agent.id, false);
    await tick(drainQueues, nowSeconds());
    const [row] = await rowsOf(w.inbox.id);
    expect(row).toMatchObject({ assigneeId: agent.id, assignmentQueuedAt: null });
    const queued = await db()
      .select()
      .from(t.conversations)
      .where(
        and(eq(t.conversations.inboxId, w.inbox.id), isNotNull(t.conversations.assignmentQueuedAt)),
      )
      .all();
    expect(queued).toEqual([]);
  });

  it("auto_assignment_config.max_assignment_limit is set through the inbox API, bounded", async () => {
    const w = await desk(0);
    const path = `/api/v1/accounts/${w.account.id}/inboxes/${w.inbox.id}`;
    const ok = await api(path, {
      method: "PATCH",
      token: w.admin.token,
      body: { auto_assignment_config: { max_assignment_limit: 3 } },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.auto_assignment_config).toEqual({ max_assignment_limit: 3 });
    for (const bad of [0, -1, 1.5, "3", 10_001]) {
      const res = await api(path, {
        method: "PATCH",
        token: w.admin.token,
        body: { auto_assignment_config: { max_assignment_limit: bad } },
      });
      expect(res.status).toBe(422);
    }
    const after = await api(path, { token: w.admin.token });
    expect(after.body.auto_assignment_config).toEqual({ max_assignment_limit: 3 });
  });
});

import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as t from "../../worker/db/schema";
import { nowSeconds } from "../../worker/lib/time";
import { autoResolveDue } from "../../worker/modules/schedule/service";
import {
  addInboxMember,
  createAccount,
  createAdmin,
  createAgent,
  createInbox,
  createTeam,
  db,
} from "../support/factories";
import { outboxOf } from "../support/factories-automation";
import { conversationRow, createConversation } from "../support/factories-conversations";
import { api } from "../support/http";
import { tick } from "../support/timed";

// Chatwoot parity: every message, activity notes included, moves a conversation's
// last_activity_at (Message#set_conversation_activity); the idle clock of the auto-resolve is
// that value (docs/automation.md).

const MINUTE = 60;
const DAY = 86400;

/** An account auto-resolving after 10 minutes, an admin, an agent of the inbox, a team. */
async function desk() {
  const account = await createAccount({ settings: { auto_resolve_after: 10 } });
  const inbox = await createInbox(account.id);
  const admin = await createAdmin(account.id);
  const agent = await createAgent(account.id);
  await addInboxMember(inbox.id, agent.id);
  const team = await createTeam(account.id);
  const idle = () =>
    createConversation(account.id, inbox.id, { lastActivityAt: nowSeconds() - DAY });
  const call = (displayId: number, path: string, body?: unknown) =>
    api(`/api/v1/accounts/${account.id}/conversations/${displayId}${path}`, {
      method: "POST",
      token: admin.token,
      body,
    });
  return { account, admin, agent, team, idle, call };
}

/** Every attribute named in the conversation's recorded change events. */
const changedNames = async (conversationId: number) =>
  (await outboxOf(conversationId)).flatMap((r) =>
    Object.keys((r.payload as { changed_attributes?: object }).changed_attributes ?? {}),
  );

describe("activity notes move last_activity_at", () => {
  it("an idle conversation whose assignee changed is not auto-resolved at the next tick", async () => {
    const d = await desk();
    const c = await d.idle();
    const before = nowSeconds();
    const res = await d.call(c.displayId, "/assignments", { assignee_id: d.agent.id });
    expect(res.status).toBe(200);
    expect((await conversationRow(c.id))?.lastActivityAt).toBeGreaterThanOrEqual(before);
    await tick(autoResolveDue, nowSeconds());
    expect((await conversationRow(c.id))?.status).toBe("open");
    // Idle for the setting since the assignment: resolved then.
    await tick(autoResolveDue, nowSeconds() + 10 * MINUTE + 5);
    expect((await conversationRow(c.id))?.status).toBe("resolved");
  });

  it("team, unassignment, labels and unmute notes move it too; no event names last_activity_at", async () => {
    const d = await desk();
    const changes: [string, (displayId: number) => Promise<{ status: number }>][] = [
      ["team", (id) => d.call(id, "/assignments", { team_id: d.team.id })],
      ["labels", (id) => d.call(id, "/labels", { labels: ["billing"] })],
      ["unmute", (id) => d.call(id, "/unmute")],
    ];
    for (const [name, change] of changes) {
      const c = await d.idle();
      const before = nowSeconds();
      expect((await change(c.displayId)).status, name).toBe(200);
      expect((await conversationRow(c.id))?.lastActivityAt, name).toBeGreaterThanOrEqual(before);
      expect(await changedNames(c.id), name).not.toContain("last_activity_at");
    }
    // The check above reads the events' changed attributes (a team change names team_id).
    const teamed = await d.idle();
    await d.call(teamed.displayId, "/assignments", { team_id: d.team.id });
    expect(await changedNames(teamed.id)).toContain("team_id");
    // Unassigning: assigned first (its own note), then an idle day, then unassigned.
    const c = await d.idle();
    await d.call(c.displayId, "/assignments", { assignee_id: d.agent.id });
    await db()
      .update(t.conversations)
      .set({ lastActivityAt: nowSeconds() - DAY })
      .where(eq(t.conversations.id, c.id));
    const before = nowSeconds();
    expect((await d.call(c.displayId, "/assignments", { assignee_id: null })).status).toBe(200);
    expect((await conversationRow(c.id))?.lastActivityAt).toBeGreaterThanOrEqual(before);
  });

  it("a priority set writes Chatwoot's note and moves it; the same priority again does nothing", async () => {
    const d = await desk();
    const c = await d.idle();
    const notes = async () => {
      const res = await api(
        `/api/v1/accounts/${d.account.id}/conversations/${c.displayId}/messages`,
        { token: d.admin.token },
      );
      return (res.body.payload as { message_type: number; content: string }[])
        .filter((m) => m.message_type === 2)
        .map((m) => m.content);
    };
    const before = nowSeconds();
    expect((await d.call(c.displayId, "/toggle_priority", { priority: "urgent" })).status).toBe(
      200,
    );
    expect((await conversationRow(c.id))?.lastActivityAt).toBeGreaterThanOrEqual(before);
    expect(await notes()).toEqual([`${d.admin.name} set the priority to urgent`]);
    const names = await changedNames(c.id);
    expect(names).toContain("priority");
    expect(names).not.toContain("last_activity_at");
    // Not auto-resolved for the idle day before it.
    await tick(autoResolveDue, nowSeconds());
    expect((await conversationRow(c.id))?.status).toBe("open");
    // The same priority again: no note, no event, the clock as it was.
    await db()
      .update(t.conversations)
      .set({ lastActivityAt: c.lastActivityAt })
      .where(eq(t.conversations.id, c.id));
    const events = (await outboxOf(c.id)).length;
    expect((await d.call(c.displayId, "/toggle_priority", { priority: "urgent" })).status).toBe(
      200,
    );
    expect((await conversationRow(c.id))?.lastActivityAt).toBe(c.lastActivityAt);
    expect(await outboxOf(c.id)).toHaveLength(events);
    expect(await notes()).toEqual([`${d.admin.name} set the priority to urgent`]);
  });

  it("a change that writes no note leaves it as it was (the same labels posted again)", async () => {
    const d = await desk();
    const c = await d.idle();
    expect((await d.call(c.displayId, "/labels", { labels: [] })).status).toBe(200);
    expect((await conversationRow(c.id))?.lastActivityAt).toBe(c.lastActivityAt);
    expect((await d.call(c.displayId, "/assignments", { team_id: null })).status).toBe(200);
    expect((await conversationRow(c.id))?.lastActivityAt).toBe(c.lastActivityAt);
  });
});

import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { describeAuthMatrix } from "../../support/auth-matrix";
import {
  addInboxMember,
  createAgent,
  createInbox,
  createTeam,
  createWorld,
} from "../../support/factories";
import { createContact, createConversation } from "../../support/factories-conversations";
import { api, expectError } from "../../support/http";
import { trail } from "../../support/trail";

const url = (accountId: number) => `/api/v1/accounts/${accountId}/bulk_actions`;

const rows = async (sql: string, ...binds: unknown[]) =>
  (
    await env.DB.prepare(sql)
      .bind(...binds)
      .all<Record<string, unknown>>()
  ).results;

describe("bulk actions: conversations", () => {
  it("changes each conversation exactly as the single routes do (events, activity messages)", async () => {
    const { account, admin, inbox } = await createWorld();
    const agent = await createAgent(account.id);
    await addInboxMember(inbox.id, agent.id);
    const team = await createTeam(account.id, { name: "refunds" });
    const [bulk1, bulk2, manual] = await Promise.all(
      [1, 2, 3].map(() =>
        createConversation(account.id, inbox.id, { status: "open", labels: ["spam", "vip"] }),
      ),
    );
    const res = await api(url(account.id), {
      method: "POST",
      token: admin.token,
      body: {
        type: "Conversation",
        ids: [bulk1!.displayId, bulk2!.displayId, bulk1!.displayId],
        fields: { status: "resolved", assignee_id: agent.id, team_id: team.id },
        labels: { add: ["billing"], remove: ["spam"] },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.payload).toEqual([
      { id: bulk1!.displayId, status: "updated", errors: [] },
      { id: bulk2!.displayId, status: "updated", errors: [] },
    ]);

    const base = `/api/v1/accounts/${account.id}/conversations/${manual!.displayId}`;
    const post = (path: string, body: unknown) =>
      api(`${base}/${path}`, { method: "POST", token: admin.token, body });
    expect((await post("labels", { labels: ["billing", "vip"] })).status).toBe(200);
    expect((await post("toggle_status", { status: "resolved" })).status).toBe(200);
    expect((await post("assignments", { assignee_id: agent.id })).status).toBe(200);
    expect((await post("assignments", { team_id: team.id })).status).toBe(200);

    const expected = await trail(manual!.id);
    expect(expected.notes).toContain("Conversation was marked resolved by " + admin.name);
    for (const conv of [bulk1!, bulk2!]) {
      expect(await trail(conv.id)).toEqual(expected);
      const [row] = await rows(
        "SELECT status, assignee_id, team_id FROM conversations WHERE id = ?",
        conv.id,
      );
      expect(row).toEqual({ status: "resolved", assignee_id: agent.id, team_id: team.id });
      const labels = await rows(
        "SELECT title FROM conversation_labels WHERE conversation_id = ? ORDER BY title",
        conv.id,
      );
      expect(labels.map((l) => l.title)).toEqual(["billing", "vip"]);
    }
  });

  it("reports per id: not found for what the caller may not see, a refused change beside the ones made", async () => {
    const { account, inbox } = await createWorld();
    const agent = await createAgent(account.id);
    await addInboxMember(inbox.id, agent.id);
    const stranger = await createAgent(account.id); // of the account, not of the inbox
    const hidden = await createInbox(account.id);
    const mine = await createConversation(account.id, inbox.id, { status: "open" });
    const unseen = await createConversation(account.id, hidden.id, { status: "open" });
    const other = await createWorld();
    const theirs = await createConversation(other.account.id, other.inbox.id, { status: "open" });
    const res = await api(url(account.id), {
      method: "POST",
      token: agent.token,
      body: {
        type: "conversation",
        ids: [mine.displayId, unseen.displayId, 424_242],
        fields: { assignee_id: stranger.id, status: "pending" },
        labels: { add: ["Urgent"] },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.payload).toEqual([
      {
        id: mine.displayId,
        status: "updated",
        errors: ["assignee_id must be an agent of this inbox"],
      },
      { id: unseen.displayId, status: "not_found", errors: [] },
      { id: 424_242, status: "not_found", errors: [] },
    ]);
    const [row] = await rows("SELECT status, assignee_id FROM conversations WHERE id = ?", mine.id);
    expect(row).toEqual({ status: "pending", assignee_id: null });
    expect(
      await rows("SELECT title FROM conversation_labels WHERE conversation_id = ?", mine.id),
    ).toEqual([{ title: "urgent" }]);
    for (const id of [unseen.id, theirs.id]) {
      expect((await rows("SELECT status FROM conversations WHERE id = ?", id))[0]?.status).toBe(
        "open",
      );
      expect(await rows("SELECT id FROM event_outbox WHERE conversation_id = ?", id)).toEqual([]);
    }
  });

  it("snoozes until snoozed_until; a time already past is refused per conversation", async () => {
    const { account, admin, inbox } = await createWorld();
    const conv = await createConversation(account.id, inbox.id, { status: "open" });
    const until = Math.floor(Date.now() / 1000) + 3600;
    const snooze = (snoozedUntil: number) =>
      api(url(account.id), {
        method: "POST",
        token: admin.token,
        body: {
          type: "Conversation",
          ids: [conv.displayId],
          fields: { status: "snoozed" },
          snoozed_until: snoozedUntil,
        },
      });
    expect((await snooze(until)).body.payload[0]).toEqual({
      id: conv.displayId,
      status: "updated",
      errors: [],
    });
    const [row] = await rows(
      "SELECT status, snoozed_until FROM conversations WHERE id = ?",
      conv.id,
    );
    expect(row).toEqual({ status: "snoozed", snoozed_until: until });
    const past = await snooze(1000);
    expect(past.body.payload[0].errors).toEqual(["snoozed_until must be in the future"]);
  });

  it("refuses bad input with a 422 that changes nothing", async () => {
    const { account, admin, inbox } = await createWorld();
    const other = await createWorld();
    const conv = await createConversation(account.id, inbox.id, { status: "open" });
    const ids = [conv.displayId];
    const bad = [
      { type: "Conversation", ids, fields: { assignee_id: other.admin.id, status: "resolved" } },
      { type: "Conversation", ids, fields: { team_id: 987_654, status: "resolved" } },
      { type: "Conversation", ids, fields: { status: "closed" } },
      { type: "Conversation", ids },
      { type: "Conversation", ids: [], fields: { status: "resolved" } },
      {
        type: "Conversation",
        ids: Array.from({ length: 101 }, (_, i) => i + 1),
        fields: { status: "resolved" },
      },
      { type: "Message", ids, fields: { status: "resolved" } },
      { type: "Conversation", ids, labels: { add: ["x".repeat(256)] } },
      { type: "Contact", ids: [1] },
    ];
    for (const body of bad) {
      expectError(await api(url(account.id), { method: "POST", token: admin.token, body }), 422);
    }
    expect((await rows("SELECT status FROM conversations WHERE id = ?", conv.id))[0]?.status).toBe(
      "open",
    );
    expect(await rows("SELECT id FROM event_outbox WHERE conversation_id = ?", conv.id)).toEqual(
      [],
    );
  });
});

describe("bulk actions: contacts", () => {
  it("labels contacts of the account; only administrators delete them", async () => {
    const { account, admin, agent } = await createWorld();
    const a = await createContact(account.id);
    const b = await createContact(account.id);
    const other = await createWorld();
    const theirs = await createContact(other.account.id);
    const tagged = await api(url(account.id), {
      method: "POST",
      token: agent.token,
      body: { type: "Contact", ids: [a.id, b.id, theirs.id], labels: { add: ["lead", "VIP"] } },
    });
    expect(tagged.body.payload).toEqual([
      { id: a.id, status: "updated", errors: [] },
      { id: b.id, status: "updated", errors: [] },
      { id: theirs.id, status: "not_found", errors: [] },
    ]);
    const labels = await api(`/api/v1/accounts/${account.id}/contacts/${a.id}/labels`, {
      token: agent.token,
    });
    expect(labels.body.payload).toEqual(["lead", "vip"]);
    expect(await rows("SELECT * FROM contact_labels WHERE contact_id = ?", theirs.id)).toEqual([]);

    const body = { type: "Contact", ids: [a.id, theirs.id], action_name: "delete" };
    expectError(await api(url(account.id), { method: "POST", token: agent.token, body }), 403);
    const deleted = await api(url(account.id), { method: "POST", token: admin.token, body });
    expect(deleted.body.payload).toEqual([
      { id: a.id, status: "updated", errors: [] },
      { id: theirs.id, status: "not_found", errors: [] },
    ]);
    expect(await rows("SELECT id FROM contacts WHERE id IN (?, ?)", a.id, theirs.id)).toEqual([
      { id: theirs.id },
    ]);
  });
});

describeAuthMatrix("POST bulk_actions", {
  method: "POST",
  path: (w) => url(w.account.id),
  body: { type: "Conversation", ids: [1], fields: { status: "resolved" } },
});

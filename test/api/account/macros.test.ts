import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { describeAuthMatrix } from "../../support/auth-matrix";
import { addInboxMember, createAgent, createInbox, createWorld } from "../../support/factories";
import { createAttachment } from "../../support/factories-automation";
import { createConversation, MT } from "../../support/factories-conversations";
import { api, expectError } from "../../support/http";
import { trail } from "../../support/trail";

const base = (accountId: number) => `/api/v1/accounts/${accountId}/macros`;

type Macro = { id: number; name: string; visibility: string; created_by?: { id: number } };

async function create(accountId: number, token: string, body: unknown) {
  const res = await api(base(accountId), { method: "POST", token, body });
  expect(res.status).toBe(200);
  return res.body.payload as Macro;
}

const LABEL_AND_RESOLVE = [
  { action_name: "add_label", action_params: ["billing"] },
  { action_name: "resolve_conversation", action_params: [] },
];

const rows = async (sql: string, ...binds: unknown[]) =>
  (
    await env.DB.prepare(sql)
      .bind(...binds)
      .all<Record<string, unknown>>()
  ).results;

describe("macros: visibility and who may change them (Chatwoot's MacroPolicy)", () => {
  it("agents see the account's macros and their own; an agent's macro is always personal", async () => {
    const { account, admin, agent } = await createWorld();
    const global = await create(account.id, admin.token, {
      name: "Close as billing",
      visibility: "global",
      actions: LABEL_AND_RESOLVE,
    });
    expect(global).toMatchObject({
      name: "Close as billing",
      visibility: "global",
      account_id: account.id,
      created_by: { id: admin.id, email: admin.email },
      updated_by: { id: admin.id },
      actions: LABEL_AND_RESOLVE,
    });
    const adminsOwn = await create(account.id, admin.token, {
      macro: { name: "Mine", visibility: "personal", actions: LABEL_AND_RESOLVE },
    });
    // An agent asking for global gets personal (Macro#set_visibility).
    const agentsOwn = await create(account.id, agent.token, {
      name: "Agent's",
      visibility: "global",
      actions: LABEL_AND_RESOLVE,
    });
    expect(agentsOwn.visibility).toBe("personal");

    const names = async (token: string) =>
      (await api(base(account.id), { token })).body.payload.map((m: Macro) => m.name);
    expect(await names(agent.token)).toEqual(["Close as billing", "Agent's"]);
    // Nobody, administrators included, sees another user's personal macro.
    expect(await names(admin.token)).toEqual(["Close as billing", "Mine"]);
    expectError(await api(`${base(account.id)}/${adminsOwn.id}`, { token: agent.token }), 404);
    expectError(await api(`${base(account.id)}/${agentsOwn.id}`, { token: admin.token }), 404);
    const shown = await api(`${base(account.id)}/${global.id}`, { token: agent.token });
    expect(shown.body.payload.id).toBe(global.id);
  });

  it("a global macro is changed by administrators only, a personal one by its author only", async () => {
    const { account, admin, agent } = await createWorld();
    const global = await create(account.id, admin.token, {
      name: "Global",
      visibility: "global",
      actions: LABEL_AND_RESOLVE,
    });
    const personal = await create(account.id, agent.token, {
      name: "Personal",
      actions: LABEL_AND_RESOLVE,
    });
    const url = (id: number) => `${base(account.id)}/${id}`;
    const patch = (id: number, token: string, body: unknown) =>
      api(url(id), { method: "PATCH", token, body });

    expectError(await patch(global.id, agent.token, { name: "Hijacked" }), 403, "forbidden");
    expectError(await api(url(global.id), { method: "DELETE", token: agent.token }), 403);
    expectError(await patch(personal.id, admin.token, { name: "Hijacked" }), 404);
    expectError(await api(url(personal.id), { method: "DELETE", token: admin.token }), 404);

    const renamed = await patch(personal.id, agent.token, {
      name: "Renamed",
      visibility: "global",
      actions: [{ action_name: "add_private_note", action_params: ["seen"] }],
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.payload).toMatchObject({
      name: "Renamed",
      visibility: "personal",
      actions: [{ action_name: "add_private_note", action_params: ["seen"] }],
    });
    const demoted = await patch(global.id, admin.token, { visibility: "personal" });
    expect(demoted.body.payload.visibility).toBe("personal");

    expect((await api(url(global.id), { method: "DELETE", token: admin.token })).status).toBe(200);
    expectError(await api(url(global.id), { token: admin.token }), 404);
    const [stored] = await rows("SELECT name FROM macros WHERE id = ?", global.id);
    expect(stored).toBeUndefined();
  });

  it("refuses actions a macro may not hold, ids of another account and unbounded input: 422, nothing stored", async () => {
    const { account, admin } = await createWorld();
    const other = await createWorld();
    const bad = [
      { name: "x", actions: [] },
      { name: "   ", actions: LABEL_AND_RESOLVE },
      {
        name: "x",
        actions: [{ action_name: "send_webhook_event", action_params: ["https://a.example"] }],
      },
      { name: "x", actions: [{ action_name: "no_such_action", action_params: [] }] },
      { name: "x", actions: [{ action_name: "assign_agent", action_params: [other.admin.id] }] },
      { name: "x", actions: [{ action_name: "change_status", action_params: ["closed"] }] },
      { name: "x", visibility: "everyone", actions: LABEL_AND_RESOLVE },
      { name: "x", actions: Array.from({ length: 26 }, () => LABEL_AND_RESOLVE[0]) },
      { name: "x".repeat(256), actions: LABEL_AND_RESOLVE },
    ];
    for (const body of bad) {
      expectError(await api(base(account.id), { method: "POST", token: admin.token, body }), 422);
    }
    expect(await rows("SELECT id FROM macros WHERE account_id = ?", account.id)).toEqual([]);
    const macro = await create(account.id, admin.token, { name: "ok", actions: LABEL_AND_RESOLVE });
    expectError(
      await api(`${base(account.id)}/${macro.id}/execute`, {
        method: "POST",
        token: admin.token,
        body: { conversation_ids: Array.from({ length: 26 }, (_, i) => i + 1) },
      }),
      422,
    );
    expectError(
      await api(`${base(account.id)}/${macro.id}/execute`, {
        method: "POST",
        token: admin.token,
        body: { conversation_ids: [] },
      }),
      422,
    );
  });
});

describe("macros: execute", () => {
  it("runs the actions as the agent, once per conversation, with activity messages naming them", async () => {
    const { account, admin, inbox } = await createWorld();
    const agent = await createAgent(account.id);
    await addInboxMember(inbox.id, agent.id);
    const hidden = await createInbox(account.id); // the agent is no member of it
    const macro = await create(account.id, admin.token, {
      name: "Billing, answered",
      visibility: "global",
      actions: [
        { action_name: "add_label", action_params: ["billing"] },
        { action_name: "send_message", action_params: ["We are on it"] },
        { action_name: "change_priority", action_params: ["high"] },
        { action_name: "resolve_conversation", action_params: [] },
      ],
    });
    const convs = await Promise.all(
      [1, 2, 3].map(() => createConversation(account.id, inbox.id, { status: "open" })),
    );
    const unseen = await createConversation(account.id, hidden.id, { status: "open" });
    const other = await createWorld();
    const theirs = await createConversation(other.account.id, other.inbox.id, { status: "open" });
    const [a, b, c] = convs.map((x) => x.displayId) as [number, number, number];

    const res = await api(`${base(account.id)}/${macro.id}/execute`, {
      method: "POST",
      token: agent.token,
      body: { conversation_ids: [a, b, a, c, unseen.displayId, 999_999] },
    });
    expect(res.status).toBe(200);
    expect(res.body.payload).toEqual([
      { conversation_id: a, status: "executed", failed_actions: [] },
      { conversation_id: b, status: "executed", failed_actions: [] },
      { conversation_id: c, status: "executed", failed_actions: [] },
      { conversation_id: unseen.displayId, status: "not_found", failed_actions: [] },
      { conversation_id: 999_999, status: "not_found", failed_actions: [] },
    ]);

    const name = (await rows("SELECT name FROM users WHERE id = ?", agent.id))[0]?.name;
    for (const conv of convs) {
      const [row] = await rows("SELECT status, priority FROM conversations WHERE id = ?", conv.id);
      expect(row).toEqual({ status: "resolved", priority: "high" });
      const labels = await rows(
        "SELECT title FROM conversation_labels WHERE conversation_id = ?",
        conv.id,
      );
      expect(labels).toEqual([{ title: "billing" }]);
      const messages = await rows(
        "SELECT message_type, content, sender_type, sender_id FROM messages WHERE conversation_id = ? ORDER BY id",
        conv.id,
      );
      // Exactly once, though `a` was named twice; every change is the agent's.
      expect(messages).toEqual([
        {
          message_type: MT.activity,
          content: `${name} added billing`,
          sender_type: null,
          sender_id: null,
        },
        {
          message_type: MT.outgoing,
          content: "We are on it",
          sender_type: "User",
          sender_id: agent.id,
        },
        {
          message_type: MT.activity,
          content: `${name} set the priority to high`,
          sender_type: null,
          sender_id: null,
        },
        {
          message_type: MT.activity,
          content: `Conversation was marked resolved by ${name}`,
          sender_type: null,
          sender_id: null,
        },
      ]);
      const events = await rows(
        "SELECT name, json_extract(payload, '$.performed_by') AS by FROM event_outbox WHERE conversation_id = ? ORDER BY id",
        conv.id,
      );
      expect(events.length).toBeGreaterThan(0);
      for (const e of events) {
        expect(JSON.parse(String(e.by))).toEqual({ type: "user", id: agent.id });
      }
    }
    // Out of the agent's sight, and another account's: untouched.
    for (const id of [unseen.id, theirs.id]) {
      expect(await rows("SELECT id FROM messages WHERE conversation_id = ?", id)).toEqual([]);
      expect((await rows("SELECT status FROM conversations WHERE id = ?", id))[0]?.status).toBe(
        "open",
      );
    }
  });

  it("an action that fails is reported and the others still run; a personal macro runs for its author only", async () => {
    const { account, admin, inbox } = await createWorld();
    const agent = await createAgent(account.id);
    await addInboxMember(inbox.id, agent.id);
    const outsider = await createAgent(account.id); // of the account, not of the inbox
    const macro = await create(account.id, agent.token, {
      name: "Mine",
      actions: [
        { action_name: "assign_agent", action_params: [outsider.id] },
        { action_name: "add_private_note", action_params: ["checked"] },
      ],
    });
    const conv = await createConversation(account.id, inbox.id);
    const res = await api(`${base(account.id)}/${macro.id}/execute`, {
      method: "POST",
      token: agent.token,
      body: { conversation_ids: [conv.displayId] },
    });
    expect(res.body.payload).toEqual([
      { conversation_id: conv.displayId, status: "executed", failed_actions: ["assign_agent"] },
    ]);
    const notes = await rows(
      "SELECT content, private, sender_id FROM messages WHERE conversation_id = ?",
      conv.id,
    );
    expect(notes).toEqual([{ content: "checked", private: 1, sender_id: agent.id }]);
    expectError(
      await api(`${base(account.id)}/${macro.id}/execute`, {
        method: "POST",
        token: admin.token,
        body: { conversation_ids: [conv.displayId] },
      }),
      404,
    );
  });
});

describe("macros: the same trail as the agent's own clicks", () => {
  it("a macro's changes have the events and activity messages of the single routes", async () => {
    const { account, admin, inbox } = await createWorld();
    const agent = await createAgent(account.id);
    await addInboxMember(inbox.id, agent.id);
    const macro = await create(account.id, admin.token, {
      name: "Triage",
      visibility: "global",
      actions: [
        { action_name: "add_label", action_params: ["billing"] },
        { action_name: "assign_agent", action_params: [agent.id] },
        { action_name: "change_status", action_params: ["pending"] },
      ],
    });
    const [byMacro, byHand] = await Promise.all(
      [1, 2].map(() => createConversation(account.id, inbox.id, { status: "open" })),
    );
    const ran = await api(`${base(account.id)}/${macro.id}/execute`, {
      method: "POST",
      token: agent.token,
      body: { conversation_ids: [byMacro!.displayId] },
    });
    expect(ran.body.payload[0].failed_actions).toEqual([]);
    const url = `/api/v1/accounts/${account.id}/conversations/${byHand!.displayId}`;
    const post = async (path: string, body: unknown) =>
      expect(
        (await api(`${url}/${path}`, { method: "POST", token: agent.token, body })).status,
      ).toBe(200);
    await post("labels", { labels: ["billing"] });
    await post("assignments", { assignee_id: agent.id });
    await post("toggle_status", { status: "pending" });
    const expected = await trail(byHand!.id);
    expect(expected.events.length).toBeGreaterThanOrEqual(3);
    expect(await trail(byMacro!.id)).toEqual(expected);
  });
});

describe("macros: audit log", () => {
  it("records creating, changing and deleting a macro, with who and from where", async () => {
    const { account, admin } = await createWorld();
    const headers = { "cf-connecting-ip": "198.51.100.4" };
    const created = await api(base(account.id), {
      method: "POST",
      token: admin.token,
      headers,
      body: { name: "Audited", visibility: "global", actions: LABEL_AND_RESOLVE },
    });
    const id = created.body.payload.id;
    await api(`${base(account.id)}/${id}`, {
      method: "PATCH",
      token: admin.token,
      headers,
      body: { name: "Audited twice" },
    });
    await api(`${base(account.id)}/${id}`, { method: "DELETE", token: admin.token, headers });
    const log = await api(`/api/v1/accounts/${account.id}/audit_logs`, { token: admin.token });
    const entries = log.body.audit_logs.filter(
      (e: { auditable_type: string }) => e.auditable_type === "Macro",
    );
    expect(entries.map((e: { action: string }) => e.action)).toEqual([
      "destroy",
      "update",
      "create",
    ]);
    for (const entry of entries) {
      expect(entry).toMatchObject({
        auditable_id: id,
        user_id: admin.id,
        remote_address: "198.51.100.4",
      });
    }
    expect(entries[1].audited_changes).toEqual({ name: ["Audited", "Audited twice"] });
    expect(entries[2].audited_changes).toMatchObject({ name: "Audited", visibility: "global" });
  });
});

describeAuthMatrix("GET macros", {
  method: "GET",
  path: (w) => base(w.account.id),
});

describeAuthMatrix("POST macros/{id}/execute", {
  method: "POST",
  path: async (w) => {
    const res = await api(base(w.account.id), {
      method: "POST",
      token: w.admin.token,
      body: { name: "m", visibility: "global", actions: LABEL_AND_RESOLVE },
    });
    return `${base(w.account.id)}/${res.body.payload.id}/execute`;
  },
  body: { conversation_ids: [1] },
});

describe("macros: send_attachment", () => {
  it("names files of conversations the macro's author may see (an agent: their inboxes only)", async () => {
    const { account, admin, agent, inbox } = await createWorld();
    const theirs = await createInbox(account.id);
    await addInboxMember(theirs.id, agent.id);
    const visible = await createAttachment(account.id, theirs.id);
    const hidden = await createAttachment(account.id, inbox.id);
    const other = await createWorld();
    const foreign = await createAttachment(other.account.id, other.inbox.id);
    const macro = (ids: number[]) => ({
      name: "Send terms",
      actions: [{ action_name: "send_attachment", action_params: ids }],
    });
    const post = (token: string, body: unknown) =>
      api(base(account.id), { method: "POST", token, body });

    expect((await post(agent.token, macro([visible.id]))).status).toBe(200);
    const refused = await post(agent.token, macro([visible.id, hidden.id]));
    expectError(refused, 422);
    expect(refused.body.details).toEqual([
      {
        path: "actions.0.action_params",
        message: `${hidden.id} is not a file of a conversation you may see`,
      },
    ]);
    expectError(await post(admin.token, macro([foreign.id])), 422);
    // An administrator sees every inbox; their global macro sends the file whoever runs it.
    expect((await post(admin.token, { ...macro([hidden.id]), visibility: "global" })).status).toBe(
      200,
    );
    // An update is checked the same way.
    const mine = await create(account.id, agent.token, macro([visible.id]));
    const patched = await api(`${base(account.id)}/${mine.id}`, {
      method: "PATCH",
      token: agent.token,
      body: { actions: macro([hidden.id]).actions },
    });
    expectError(patched, 422);
    const names = await rows("SELECT name FROM macros WHERE account_id = ?", account.id);
    expect(names).toHaveLength(3);
  });
});

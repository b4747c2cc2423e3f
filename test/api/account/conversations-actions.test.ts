import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { describeAuthMatrix } from "../../support/auth-matrix";
import {
  addInboxMember,
  createInbox,
  createTeam,
  createWorld,
  unique,
} from "../../support/factories";
import {
  conversationRow,
  createConversation,
  defineConversationAttribute,
  insertMessage,
  MT,
} from "../../support/factories-conversations";
import { createLabel } from "../../support/factories-teams";
import { api, expectError } from "../../support/http";

type World = Awaited<ReturnType<typeof createWorld>>;

const path = (accountId: number, displayId: number, action = "") =>
  `/api/v1/accounts/${accountId}/conversations/${displayId}${action ? `/${action}` : ""}`;

/** An inbox the agent works in, one it does not, and a conversation in each. */
async function actionSet() {
  const w = await createWorld();
  const mine = await createInbox(w.account.id);
  await addInboxMember(mine.id, w.agent.id);
  const hiddenInbox = await createInbox(w.account.id);
  const conv = await createConversation(w.account.id, mine.id);
  const hidden = await createConversation(w.account.id, hiddenInbox.id);
  const botConv = await createConversation(w.account.id, w.inbox.id, { status: "pending" });
  return { ...w, mine, conv, hidden, botConv };
}

const inBotInbox = async (w: World) =>
  (await createConversation(w.account.id, w.inbox.id)).displayId;

function matrix(action: string, method: string, allowBots: boolean, body?: unknown) {
  describeAuthMatrix(`${method} ${action || "conversation"}`, {
    method,
    path: async (w) => path(w.account.id, await inBotInbox(w), action),
    allowBots,
    body,
  });
}

/** Every action on a conversation the caller may not see, or that does not exist, is 404. */
async function expectHidden(action: string, method: string, body?: unknown) {
  const s = await actionSet();
  const other = await createWorld();
  // A display_id the local account does not use, so only the account scoping can answer.
  const foreign = await createConversation(other.account.id, other.inbox.id, { displayId: 777 });
  const before = await conversationRow(s.hidden.id);
  for (const [token, id] of [
    [s.agent.token, s.hidden.displayId],
    [s.bot.token, s.conv.displayId],
    [s.admin.token, 999_999],
    [s.admin.token, foreign.displayId],
  ] as const) {
    const payload = method === "GET" ? undefined : (body ?? {});
    const res = await api(path(s.account.id, id, action), { method, token, body: payload });
    if (!(token === s.bot.token && res.status === 401)) {
      expectError(res, 404, "not_found");
    }
  }
  expect(await conversationRow(s.hidden.id)).toEqual(before);
}

describe("POST /conversations/{id}/toggle_status", () => {
  matrix("toggle_status", "POST", true);

  it("toggles open ↔ resolved and brings pending and snoozed back to open", async () => {
    const s = await actionSet();
    const toggle = () =>
      api(path(s.account.id, s.conv.displayId, "toggle_status"), {
        token: s.agent.token,
        body: {},
      });
    const first = await toggle();
    expect(first.body).toEqual({
      meta: {},
      payload: {
        success: true,
        conversation_id: s.conv.displayId,
        current_status: "resolved",
        snoozed_until: null,
      },
    });
    expect((await toggle()).body.payload.current_status).toBe("open");
    for (const status of ["pending", "snoozed"]) {
      await api(path(s.account.id, s.conv.displayId, "toggle_status"), {
        token: s.admin.token,
        body: { status },
      });
      expect((await toggle()).body.payload.current_status).toBe("open");
    }
  });

  it("accepts a toggle with no body at all", async () => {
    const s = await actionSet();
    const res = await api(path(s.account.id, s.conv.displayId, "toggle_status"), {
      method: "POST",
      token: s.admin.token,
    });
    expect(res.status).toBe(200);
    expect(res.body.payload.current_status).toBe("resolved");
  });

  it("snoozes until a future time, and clears it on any other status", async () => {
    const s = await actionSet();
    const until = Math.floor(Date.now() / 1000) + 3600;
    const url = path(s.account.id, s.conv.displayId, "toggle_status");
    const res = await api(url, {
      token: s.admin.token,
      body: { status: "snoozed", snoozed_until: until },
    });
    expect(res.body.payload).toMatchObject({ current_status: "snoozed", snoozed_until: until });
    expect((await conversationRow(s.conv.id))?.snoozedUntil).toBe(until);
    const open = await api(url, {
      token: s.admin.token,
      body: { status: "open", snoozed_until: until },
    });
    expect(open.body.payload).toMatchObject({ current_status: "open", snoozed_until: null });
  });

  it("answers 422 for an unknown status or a past snoozed_until, changing nothing", async () => {
    const s = await actionSet();
    const url = path(s.account.id, s.conv.displayId, "toggle_status");
    for (const body of [
      { status: "closed" },
      { status: "snoozed", snoozed_until: 1000 },
      { snoozed_until: "soon" },
    ]) {
      expectError(await api(url, { token: s.admin.token, body }), 422, "validation_failed");
    }
    expect((await conversationRow(s.conv.id))?.status).toBe("open");
  });

  it("lets a bot hand a pending conversation over to humans (waiting_since set)", async () => {
    const s = await actionSet();
    const res = await api(path(s.account.id, s.botConv.displayId, "toggle_status"), {
      token: s.bot.token,
      body: { status: "open" },
    });
    expect(res.body.payload.current_status).toBe("open");
    const row = await conversationRow(s.botConv.id);
    expect(row?.waitingSince).toEqual(expect.any(Number));
  });

  it("is 404 for hidden, unknown and foreign conversations", () =>
    expectHidden("toggle_status", "POST"));
});

describe("POST /conversations/{id}/toggle_priority", () => {
  matrix("toggle_priority", "POST", true, { priority: "high" });

  it("sets and clears the priority", async () => {
    const s = await actionSet();
    const url = path(s.account.id, s.conv.displayId, "toggle_priority");
    const res = await api(url, { token: s.agent.token, body: { priority: "urgent" } });
    expect(res).toMatchObject({ status: 200, body: {} });
    expect((await conversationRow(s.conv.id))?.priority).toBe("urgent");
    await api(url, { token: s.bot.token, body: { priority: "low" } }).then((r) =>
      expect(r.status).toBe(404),
    );
    await api(url, { token: s.agent.token, body: { priority: null } });
    expect((await conversationRow(s.conv.id))?.priority).toBeNull();
  });

  it("lets a bot set the priority in its inbox", async () => {
    const s = await actionSet();
    const res = await api(path(s.account.id, s.botConv.displayId, "toggle_priority"), {
      token: s.bot.token,
      body: { priority: "medium" },
    });
    expect(res.status).toBe(200);
    expect((await conversationRow(s.botConv.id))?.priority).toBe("medium");
  });

  it("answers 422 for an unknown priority", async () => {
    const s = await actionSet();
    const res = await api(path(s.account.id, s.conv.displayId, "toggle_priority"), {
      token: s.admin.token,
      body: { priority: "critical" },
    });
    expect(expectError(res, 422).details[0]?.path).toBe("priority");
    expect((await conversationRow(s.conv.id))?.priority).toBeNull();
  });

  it("is 404 for hidden, unknown and foreign conversations", () =>
    expectHidden("toggle_priority", "POST", { priority: "high" }));
});

describe("PATCH /conversations/{id}", () => {
  matrix("", "PATCH", true, { priority: "high" });

  it("updates priority and merges attributes, answering with the record", async () => {
    const s = await actionSet();
    await defineConversationAttribute(s.account.id, "score", "number");
    await defineConversationAttribute(s.account.id, "plan", "text");
    const conv = await createConversation(s.account.id, s.mine.id, {
      customAttributes: { plan: "free" },
      additionalAttributes: { referer: "x" },
    });
    const res = await api(path(s.account.id, conv.displayId), {
      method: "PATCH",
      token: s.agent.token,
      body: {
        priority: "high",
        custom_attributes: { score: "42" },
        additional_attributes: { browser: "ff" },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: conv.displayId,
      priority: "high",
      custom_attributes: { plan: "free", score: 42 },
      additional_attributes: { referer: "x", browser: "ff" },
    });
  });

  it("answers 422 for bad values and changes nothing", async () => {
    const s = await actionSet();
    await defineConversationAttribute(s.account.id, "score", "number");
    for (const body of [
      { priority: "x" },
      { priority: "low", custom_attributes: { score: "many" } },
      { custom_attributes: { nope: 1 } },
    ]) {
      const res = await api(path(s.account.id, s.conv.displayId), {
        method: "PATCH",
        token: s.admin.token,
        body,
      });
      expectError(res, 422, "validation_failed");
    }
    const row = await conversationRow(s.conv.id);
    expect(row?.priority).toBeNull();
    expect(row?.customAttributes).toEqual({});
  });

  it("is 404 for hidden, unknown and foreign conversations", () =>
    expectHidden("", "PATCH", { priority: "low" }));
});

describe("POST /conversations/{id}/assignments", () => {
  matrix("assignments", "POST", true, { assignee_id: null });

  it("assigns an inbox member or an administrator, and unassigns with null", async () => {
    const s = await actionSet();
    const url = path(s.account.id, s.conv.displayId, "assignments");
    const res = await api(url, { token: s.agent.token, body: { assignee_id: s.agent.id } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: s.agent.id, role: "agent", email: s.agent.email });
    expect((await conversationRow(s.conv.id))?.assigneeId).toBe(s.agent.id);
    const admin = await api(url, {
      token: s.agent.token,
      body: { assignee_id: String(s.admin.id) },
    });
    expect(admin.body).toMatchObject({ id: s.admin.id, role: "administrator" });
    const none = await api(url, { token: s.agent.token, body: { assignee_id: null } });
    expect(none).toMatchObject({ status: 200, body: null });
    expect((await conversationRow(s.conv.id))?.assigneeId).toBeNull();
  });

  it("assigns and unassigns a team", async () => {
    const s = await actionSet();
    const team = await createTeam(s.account.id);
    const url = path(s.account.id, s.conv.displayId, "assignments");
    const res = await api(url, { token: s.admin.token, body: { team_id: team.id } });
    expect(res.body).toEqual({
      id: team.id,
      name: team.name,
      description: null,
      allow_auto_assign: true,
      account_id: s.account.id,
      is_member: false,
    });
    expect((await conversationRow(s.conv.id))?.teamId).toBe(team.id);
    const cleared = await api(url, { token: s.admin.token, body: { team_id: 0 } });
    expect(cleared.body).toBeNull();
    expect((await conversationRow(s.conv.id))?.teamId).toBeNull();
  });

  it("answers null and changes nothing without either key", async () => {
    const s = await actionSet();
    const res = await api(path(s.account.id, s.conv.displayId, "assignments"), {
      token: s.admin.token,
      body: {},
    });
    expect(res).toMatchObject({ status: 200, body: null });
  });

  it("lets a bot assign in its inbox", async () => {
    const s = await actionSet();
    const res = await api(path(s.account.id, s.botConv.displayId, "assignments"), {
      token: s.bot.token,
      body: { assignee_id: s.admin.id },
    });
    expect(res.body).toMatchObject({ id: s.admin.id });
  });

  it("answers 422 for agents outside the inbox, other accounts' users and teams", async () => {
    const s = await actionSet();
    const other = await createWorld();
    const foreignTeam = await createTeam(other.account.id);
    const url = path(s.account.id, s.hidden.displayId, "assignments");
    for (const [body, key] of [
      [{ assignee_id: s.agent.id }, "assignee_id"],
      [{ assignee_id: other.admin.id }, "assignee_id"],
      [{ assignee_id: "abc" }, "assignee_id"],
      [{ team_id: foreignTeam.id }, "team_id"],
    ] as const) {
      const err = expectError(await api(url, { token: s.admin.token, body }), 422);
      expect(err.details[0]?.path).toBe(key);
    }
    const row = await conversationRow(s.hidden.id);
    expect([row?.assigneeId, row?.teamId]).toEqual([null, null]);
  });

  it("is 404 for hidden, unknown and foreign conversations", () =>
    expectHidden("assignments", "POST", { assignee_id: null }));
});

describe("GET/POST /conversations/{id}/labels", () => {
  matrix("labels", "GET", false);
  matrix("labels", "POST", false, { labels: ["a"] });

  it("replaces the set with free-form, lower-cased labels", async () => {
    const s = await actionSet();
    const url = path(s.account.id, s.conv.displayId, "labels");
    expect((await api(url, { token: s.agent.token })).body).toEqual({ payload: [] });
    const set = await api(url, {
      token: s.agent.token,
      body: { labels: ["Support", "billing", "support "] },
    });
    expect(set).toMatchObject({ status: 200, body: { payload: ["billing", "support"] } });
    expect((await api(url, { token: s.agent.token })).body).toEqual({
      payload: ["billing", "support"],
    });
    const replaced = await api(url, { token: s.agent.token, body: { labels: ["vip"] } });
    expect(replaced.body).toEqual({ payload: ["vip"] });
    const show = await api(path(s.account.id, s.conv.displayId), { token: s.agent.token });
    expect(show.body.labels).toEqual(["vip"]);
    expect((await api(url, { token: s.agent.token, body: { labels: [] } })).body).toEqual({
      payload: [],
    });
  });

  it("stores as many long labels as the schema allows (up to 100), never a 500", async () => {
    const s = await actionSet();
    const url = path(s.account.id, s.conv.displayId, "labels");
    const many = Array.from({ length: 100 }, (_, i) => `label-${i}-${"x".repeat(40)}`);
    const set = await api(url, { token: s.admin.token, body: { labels: many } });
    expect(set.status).toBe(200);
    expect(set.body.payload).toEqual([...many].sort());
    const fewer = await api(url, { token: s.admin.token, body: { labels: many.slice(0, 7) } });
    expect(fewer.body.payload).toEqual(many.slice(0, 7).sort());
  });

  it("counts a reporting fact for each of many account labels added at once", async () => {
    const s = await actionSet();
    const titles = Array.from({ length: 9 }, (_, i) => `report-${i}-${unique("l").toLowerCase()}`);
    for (const title of titles) {
      await createLabel(s.account.id, { title });
    }
    const url = path(s.account.id, s.conv.displayId, "labels");
    expect((await api(url, { token: s.admin.token, body: { labels: titles } })).status).toBe(200);
    const facts = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM reporting_events WHERE conversation_id = ? AND name = 'conversation_labelled'",
    )
      .bind(s.conv.id)
      .first<{ n: number }>();
    expect(facts?.n).toBe(9);
  });

  it("answers 422 for a bad body, keeping the labels", async () => {
    const s = await actionSet();
    const url = path(s.account.id, s.conv.displayId, "labels");
    await api(url, { token: s.admin.token, body: { labels: ["keep"] } });
    for (const body of [{}, { labels: "x" }, { labels: [""] }, { labels: [1] }]) {
      expectError(await api(url, { token: s.admin.token, body }), 422, "validation_failed");
    }
    expect((await api(url, { token: s.admin.token })).body).toEqual({ payload: ["keep"] });
  });

  it("is 404 for hidden, unknown and foreign conversations", async () => {
    await expectHidden("labels", "GET");
    await expectHidden("labels", "POST", { labels: ["x"] });
  });
});

describe("POST /conversations/{id}/custom_attributes", () => {
  matrix("custom_attributes", "POST", true, { custom_attributes: {} });

  it("replaces the whole hash (validated), bots included", async () => {
    const s = await actionSet();
    await defineConversationAttribute(s.account.id, "plan", "text");
    await defineConversationAttribute(s.account.id, "vip", "checkbox");
    const conv = await createConversation(s.account.id, s.inbox.id, {
      customAttributes: { plan: "free" },
    });
    const res = await api(path(s.account.id, conv.displayId, "custom_attributes"), {
      token: s.bot.token,
      body: { custom_attributes: { vip: "true" } },
    });
    expect(res).toMatchObject({ status: 200, body: { custom_attributes: { vip: true } } });
    expect((await conversationRow(conv.id))?.customAttributes).toEqual({ vip: true });
  });

  it("answers 422 for unknown keys and wrong types", async () => {
    const s = await actionSet();
    await defineConversationAttribute(s.account.id, "code", "text", {
      regexPattern: "^[A-Z]+$",
      regexCue: "Capitals only",
    });
    const url = path(s.account.id, s.conv.displayId, "custom_attributes");
    const bad = expectError(
      await api(url, { token: s.admin.token, body: { custom_attributes: { code: "abc" } } }),
      422,
    );
    expect(bad.error).toContain("Capitals only");
    expectError(
      await api(url, { token: s.admin.token, body: { custom_attributes: { other: 1 } } }),
      422,
    );
    expectError(await api(url, { token: s.admin.token, body: { custom_attributes: [] } }), 422);
    expect((await conversationRow(s.conv.id))?.customAttributes).toEqual({});
  });

  it("is 404 for hidden, unknown and foreign conversations", () =>
    expectHidden("custom_attributes", "POST", { custom_attributes: {} }));
});

describe("POST /conversations/{id}/mute, /unmute", () => {
  matrix("mute", "POST", false);
  matrix("unmute", "POST", false);

  it("mutes (resolving it) and unmutes", async () => {
    const s = await actionSet();
    const mute = await api(path(s.account.id, s.conv.displayId, "mute"), {
      token: s.agent.token,
      body: {},
    });
    expect(mute).toMatchObject({ status: 200, body: {} });
    expect(await conversationRow(s.conv.id)).toMatchObject({ muted: true, status: "resolved" });
    await api(path(s.account.id, s.conv.displayId, "unmute"), { token: s.agent.token, body: {} });
    const show = await api(path(s.account.id, s.conv.displayId), { token: s.agent.token });
    expect(show.body).toMatchObject({ muted: false, status: "resolved" });
  });

  it("is 404 for hidden, unknown and foreign conversations", async () => {
    await expectHidden("mute", "POST");
    await expectHidden("unmute", "POST");
  });
});

describe("POST /conversations/{id}/update_last_seen, /unread", () => {
  matrix("update_last_seen", "POST", false);
  matrix("unread", "POST", false);

  it("marks seen for agents, and for the assignee when the caller is the assignee", async () => {
    const s = await actionSet();
    const conv = await createConversation(s.account.id, s.mine.id, { assigneeId: s.agent.id });
    await insertMessage(conv, { createdAt: 1_600_000_000 });
    const show = () => api(path(s.account.id, conv.displayId), { token: s.admin.token });
    expect((await show()).body.unread_count).toBe(1);
    await api(path(s.account.id, conv.displayId, "update_last_seen"), {
      token: s.admin.token,
      body: {},
    });
    const afterAdmin = await conversationRow(conv.id);
    expect(afterAdmin?.agentLastSeenAt).toEqual(expect.any(Number));
    expect(afterAdmin?.assigneeLastSeenAt).toBeNull();
    expect((await show()).body.unread_count).toBe(0);
    await api(path(s.account.id, conv.displayId, "update_last_seen"), {
      token: s.agent.token,
      body: {},
    });
    expect((await conversationRow(conv.id))?.assigneeLastSeenAt).toEqual(expect.any(Number));
  });

  it("marks the latest incoming message unread again", async () => {
    const s = await actionSet();
    await insertMessage(s.conv, { createdAt: 1_600_000_000 });
    await insertMessage(s.conv, { createdAt: 1_600_000_100 });
    await insertMessage(s.conv, { createdAt: 1_600_000_200, messageType: MT.outgoing });
    await api(path(s.account.id, s.conv.displayId, "update_last_seen"), {
      token: s.admin.token,
      body: {},
    });
    const res = await api(path(s.account.id, s.conv.displayId, "unread"), {
      token: s.admin.token,
      body: {},
    });
    expect(res).toMatchObject({ status: 200, body: {} });
    expect((await conversationRow(s.conv.id))?.agentLastSeenAt).toBe(1_600_000_099);
    const show = await api(path(s.account.id, s.conv.displayId), { token: s.admin.token });
    expect(show.body.unread_count).toBe(1);
  });

  it("is 404 for hidden, unknown and foreign conversations", async () => {
    await expectHidden("update_last_seen", "POST");
    await expectHidden("unread", "POST");
  });
});

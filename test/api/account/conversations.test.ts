import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as t from "../../../worker/db/schema";
import { describeAuthMatrix } from "../../support/auth-matrix";
import {
  addInboxMember,
  attachBot,
  createAgentBot,
  createInbox,
  createTeam,
  createWorld,
  db,
} from "../../support/factories";
import {
  contactInboxesOf,
  conversationsOfAccount,
  createContact,
  createContactInbox,
  createConversation,
  defineConversationAttribute,
  insertMessage,
  MT,
} from "../../support/factories-conversations";
import { api, expectError } from "../../support/http";

const base = (accountId: number) => `/api/v1/accounts/${accountId}/conversations`;

/** A world whose inbox has no bot, so new conversations start open. */
async function plainWorld() {
  const world = await createWorld();
  const inbox = await createInbox(world.account.id);
  await addInboxMember(inbox.id, world.agent.id);
  const contact = await createContact(world.account.id);
  return { ...world, plain: inbox, contact };
}

describe("POST /conversations", () => {
  describeAuthMatrix("create conversation", {
    method: "POST",
    path: (w) => base(w.account.id),
    allowBots: true,
  });

  it("creates an open conversation with a new contact inbox and display_id 1", async () => {
    const w = await plainWorld();
    const res = await api(base(w.account.id), {
      token: w.admin.token,
      body: { inbox_id: w.plain.id, contact_id: w.contact.id, additional_attributes: { a: 1 } },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: 1,
      account_id: w.account.id,
      inbox_id: w.plain.id,
      status: "open",
      messages: [],
      labels: [],
      additional_attributes: { a: 1 },
      meta: { sender: { id: w.contact.id }, channel: "Channel::Api", assignee: null, team: null },
    });
    expect(res.body.uuid).toMatch(/^[0-9a-f-]{36}$/);
    const [ci] = await contactInboxesOf(w.contact.id);
    expect(ci?.sourceId).toMatch(/^[0-9a-f-]{36}$/);
    expect(ci?.pubsubToken).toMatch(/^\w{24}$/);
    const [row] = await conversationsOfAccount(w.account.id);
    expect(row?.contactInboxId).toBe(ci?.id);
  });

  it("reuses the contact's source_id, creates a new one, and refuses another contact's", async () => {
    const w = await plainWorld();
    const existing = await createContactInbox(w.contact.id, w.plain.id, { sourceId: "src-1" });
    const reuse = await api(base(w.account.id), {
      token: w.admin.token,
      body: { inbox_id: w.plain.id, contact_id: w.contact.id, source_id: "src-1" },
    });
    expect(reuse.status).toBe(200);
    expect((await conversationsOfAccount(w.account.id))[0]?.contactInboxId).toBe(existing.id);

    const fresh = await api(base(w.account.id), {
      token: w.admin.token,
      body: { inbox_id: w.plain.id, contact_id: w.contact.id, source_id: "src-2" },
    });
    expect(fresh.status).toBe(200);
    expect((await contactInboxesOf(w.contact.id)).map((c) => c.sourceId).sort()).toEqual([
      "src-1",
      "src-2",
    ]);

    const other = await createContact(w.account.id);
    const clash = await api(base(w.account.id), {
      token: w.admin.token,
      body: { inbox_id: w.plain.id, contact_id: other.id, source_id: "src-1" },
    });
    expect(expectError(clash, 422, "validation_failed").details[0]?.path).toBe("source_id");
    expect(await conversationsOfAccount(w.account.id)).toHaveLength(2);
  });

  it("finds the contact inbox from a bare source_id, 404 when unknown", async () => {
    const w = await plainWorld();
    await createContactInbox(w.contact.id, w.plain.id, { sourceId: "only-src" });
    const res = await api(base(w.account.id), {
      token: w.admin.token,
      body: { source_id: "only-src" },
    });
    expect(res.status).toBe(200);
    expect(res.body.meta.sender.id).toBe(w.contact.id);
    const unknown = await api(base(w.account.id), {
      token: w.admin.token,
      body: { source_id: "nope" },
    });
    expectError(unknown, 404, "not_found");
  });

  it("sets assignee, team, custom attributes, status and snoozed_until", async () => {
    const w = await plainWorld();
    const team = await createTeam(w.account.id);
    await defineConversationAttribute(w.account.id, "plan", "list", {
      attributeValues: ["free", "pro"],
    });
    const res = await api(base(w.account.id), {
      token: w.admin.token,
      body: {
        inbox_id: w.plain.id,
        contact_id: w.contact.id,
        assignee_id: w.agent.id,
        team_id: team.id,
        status: "snoozed",
        snoozed_until: 4_000_000_000,
        custom_attributes: { plan: "pro" },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: "snoozed",
      snoozed_until: 4_000_000_000,
      custom_attributes: { plan: "pro" },
      meta: { assignee: { id: w.agent.id, role: "agent" }, team: { id: team.id } },
    });
  });

  it("starts resolved for a blocked contact and pending when the inbox has an active bot", async () => {
    const w = await plainWorld();
    const blocked = await createContact(w.account.id, { blocked: true });
    const a = await api(base(w.account.id), {
      token: w.admin.token,
      body: { inbox_id: w.plain.id, contact_id: blocked.id, status: "open" },
    });
    expect(a.body.status).toBe("resolved");
    expect(a.body.can_reply).toBe(false);
    const b = await api(base(w.account.id), {
      token: w.admin.token,
      body: { inbox_id: w.inbox.id, contact_id: w.contact.id, status: "open" },
    });
    expect(b.body.status).toBe("pending");
  });

  it("posts the first message as an outgoing message of the caller", async () => {
    const w = await plainWorld();
    const res = await api(base(w.account.id), {
      token: w.agent.token,
      body: { inbox_id: w.plain.id, contact_id: w.contact.id, message: { content: "Hello there" } },
    });
    expect(res.status).toBe(200);
    expect(res.body.messages).toHaveLength(1);
    expect(res.body.last_non_activity_message).toMatchObject({
      content: "Hello there",
      message_type: MT.outgoing,
      sender_type: "User",
      sender_id: w.agent.id,
      conversation_id: res.body.id,
    });
    expect(res.body.first_reply_created_at).toEqual(expect.any(Number));
  });

  it("lets a bot create in its own inbox, not in others", async () => {
    const w = await plainWorld();
    const ok = await api(base(w.account.id), {
      token: w.bot.token,
      body: { inbox_id: w.inbox.id, contact_id: w.contact.id },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.status).toBe("pending");
    const denied = await api(base(w.account.id), {
      token: w.bot.token,
      body: { inbox_id: w.plain.id, contact_id: w.contact.id },
    });
    expectError(denied, 404, "not_found");
  });

  it("refuses agents outside the inbox, and unknown or foreign inboxes and contacts", async () => {
    const w = await plainWorld();
    const other = await createWorld();
    const foreignContact = await createContact(other.account.id);
    const outside = await createInbox(w.account.id);
    const cases = [
      { token: w.agent.token, body: { inbox_id: outside.id, contact_id: w.contact.id } },
      { token: w.admin.token, body: { inbox_id: other.inbox.id, contact_id: w.contact.id } },
      { token: w.admin.token, body: { inbox_id: 999_999_999, contact_id: w.contact.id } },
      { token: w.admin.token, body: { inbox_id: w.plain.id, contact_id: foreignContact.id } },
    ];
    for (const c of cases) {
      expectError(await api(base(w.account.id), c), 404, "not_found");
    }
    expect(await conversationsOfAccount(w.account.id)).toHaveLength(0);
  });

  it("answers 422 for bad bodies and bad references, and writes nothing", async () => {
    const w = await plainWorld();
    const team = await createTeam((await createWorld()).account.id);
    const outsider = await createWorld();
    const cases: [unknown, string][] = [
      [{}, "inbox_id"],
      [{ inbox_id: w.plain.id }, "contact_id"],
      [{ inbox_id: "x", contact_id: w.contact.id }, "inbox_id"],
      [{ inbox_id: w.plain.id, contact_id: w.contact.id, status: "closed" }, "status"],
      [
        { inbox_id: w.plain.id, contact_id: w.contact.id, assignee_id: outsider.agent.id },
        "assignee_id",
      ],
      [{ inbox_id: w.plain.id, contact_id: w.contact.id, team_id: team.id }, "team_id"],
      [
        { inbox_id: w.plain.id, contact_id: w.contact.id, custom_attributes: { nope: 1 } },
        "custom_attributes.nope",
      ],
      [
        { inbox_id: w.plain.id, contact_id: w.contact.id, message: { content: "  " } },
        "message.content",
      ],
      [
        { inbox_id: w.plain.id, contact_id: w.contact.id, additional_attributes: [] },
        "additional_attributes",
      ],
    ];
    for (const [body, path] of cases) {
      const err = expectError(await api(base(w.account.id), { token: w.admin.token, body }), 422);
      expect(err.details.map((d) => d.path)).toContain(path);
    }
    expect(await conversationsOfAccount(w.account.id)).toHaveLength(0);
    expect(await contactInboxesOf(w.contact.id)).toHaveLength(0);
  });

  it("accepts an agent who is a member of the inbox as assignee, not one who is not", async () => {
    const w = await plainWorld();
    const outside = await createInbox(w.account.id);
    const bad = await api(base(w.account.id), {
      token: w.admin.token,
      body: { inbox_id: outside.id, contact_id: w.contact.id, assignee_id: w.agent.id },
    });
    expectError(bad, 422, "validation_failed");
    const admin = await api(base(w.account.id), {
      token: w.admin.token,
      body: { inbox_id: outside.id, contact_id: w.contact.id, assignee_id: w.admin.id },
    });
    expect(admin.status).toBe(200);
  });

  it("allocates display_ids 1..20 to 20 concurrent creates", async () => {
    const w = await plainWorld();
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        api(base(w.account.id), {
          token: w.admin.token,
          body: { inbox_id: w.plain.id, contact_id: w.contact.id },
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    const ids = results.map((r) => r.body.id as number).sort((a, b) => a - b);
    expect(ids).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  it("numbers conversations per account", async () => {
    const a = await plainWorld();
    const b = await plainWorld();
    for (const w of [a, b, a]) {
      await api(base(w.account.id), {
        token: w.admin.token,
        body: { inbox_id: w.plain.id, contact_id: w.contact.id },
      });
    }
    expect((await conversationsOfAccount(a.account.id)).map((c) => c.displayId).sort()).toEqual([
      1, 2,
    ]);
    expect((await conversationsOfAccount(b.account.id)).map((c) => c.displayId)).toEqual([1]);
  });
});

describe("GET /conversations/{id}", () => {
  describeAuthMatrix("show conversation", {
    method: "GET",
    path: async (w) =>
      `${base(w.account.id)}/${(await createConversation(w.account.id, w.inbox.id)).displayId}`,
  });

  it("returns every field of the conversation record", async () => {
    const w = await plainWorld();
    const team = await createTeam(w.account.id);
    await db().insert(t.teamMembers).values({ teamId: team.id, userId: w.admin.id });
    const contact = await createContact(w.account.id, {
      name: "Alice",
      email: "alice@example.com",
      phoneNumber: "+15550001",
      identifier: "ext-1",
      avatarUrl: "https://img.example.com/a.png",
      additionalAttributes: { city: "Paris" },
      customAttributes: { tier: "gold" },
      lastActivityAt: 1_700_000_100,
      createdAt: 1_700_000_000,
    });
    const conv = await createConversation(w.account.id, w.plain.id, {
      contactId: contact.id,
      assigneeId: w.agent.id,
      teamId: team.id,
      priority: "high",
      muted: false,
      agentLastSeenAt: 1_700_000_500,
      additionalAttributes: { referer: "https://x.example.com" },
      customAttributes: { plan: "pro" },
      waitingSince: 1_700_000_400,
      lastActivityAt: 1_700_000_900,
      createdAt: 1_700_000_300,
      updatedAt: 1_700_000_950,
      labels: ["vip", "billing"],
    });
    await db()
      .update(t.contactInboxes)
      .set({ hmacVerified: true })
      .where(eq(t.contactInboxes.id, conv.contactInboxId as number));
    await insertMessage(conv, { content: "old", createdAt: 1_700_000_400 });
    await insertMessage(conv, { content: "unread 1", createdAt: 1_700_000_600 });
    const last = await insertMessage(conv, { content: "unread 2", createdAt: 1_700_000_700 });
    await insertMessage(conv, {
      content: "activity",
      messageType: MT.activity,
      createdAt: 1_700_000_800,
    });

    const res = await api(`${base(w.account.id)}/${conv.displayId}`, { token: w.admin.token });
    expect(res.status).toBe(200);
    const lastJson = res.body.last_non_activity_message;
    expect(lastJson).toMatchObject({
      id: last.id,
      content: "unread 2",
      conversation_id: conv.displayId,
    });
    expect(res.body).toEqual({
      id: conv.displayId,
      account_id: w.account.id,
      uuid: conv.uuid,
      inbox_id: w.plain.id,
      status: "open",
      messages: [lastJson],
      additional_attributes: { referer: "https://x.example.com" },
      custom_attributes: { plan: "pro" },
      agent_last_seen_at: 1_700_000_500,
      assignee_last_seen_at: 0,
      contact_last_seen_at: 0,
      contact_last_seen_seq: null,
      can_reply: true,
      labels: ["billing", "vip"],
      muted: false,
      snoozed_until: null,
      created_at: 1_700_000_300,
      updated_at: 1_700_000_950,
      timestamp: 1_700_000_300,
      first_reply_created_at: null,
      unread_count: 2,
      last_non_activity_message: lastJson,
      last_activity_at: 1_700_000_900,
      priority: "high",
      waiting_since: 1_700_000_400,
      sla_policy_id: null,
      applied_sla: {},
      sla_events: [],
      meta: {
        sender: {
          id: contact.id,
          name: "Alice",
          email: "alice@example.com",
          phone_number: "+15550001",
          identifier: "ext-1",
          blocked: false,
          thumbnail: "https://img.example.com/a.png",
          availability_status: "offline",
          additional_attributes: { city: "Paris" },
          custom_attributes: { tier: "gold" },
          last_activity_at: 1_700_000_100,
          created_at: 1_700_000_000,
        },
        channel: "Channel::Api",
        assignee: {
          id: w.agent.id,
          account_id: w.account.id,
          // Chose online, auto_offline, no socket open: offline (live presence).
          availability_status: "offline",
          auto_offline: true,
          confirmed: true,
          email: w.agent.email,
          available_name: w.agent.name,
          name: w.agent.name,
          role: "agent",
          thumbnail: "",
          custom_role_id: null,
        },
        team: {
          id: team.id,
          name: team.name,
          description: null,
          allow_auto_assign: true,
          account_id: w.account.id,
          is_member: true,
        },
        hmac_verified: true,
      },
    });
  });

  it("is 404 for unknown, malformed and other accounts' display_ids", async () => {
    const w = await plainWorld();
    const other = await createWorld();
    await createConversation(w.account.id, w.plain.id);
    const foreign = await createConversation(other.account.id, other.inbox.id, { displayId: 777 });
    for (const id of ["999999", "abc", "1.5", String(foreign.displayId)]) {
      expectError(await api(`${base(w.account.id)}/${id}`, { token: w.admin.token }), 404);
    }
  });

  it("hides conversations of inboxes the agent is not a member of", async () => {
    const w = await plainWorld();
    const outside = await createInbox(w.account.id);
    const hidden = await createConversation(w.account.id, outside.id);
    const seen = await createConversation(w.account.id, w.plain.id);
    expectError(
      await api(`${base(w.account.id)}/${hidden.displayId}`, { token: w.agent.token }),
      404,
    );
    expect(
      (await api(`${base(w.account.id)}/${seen.displayId}`, { token: w.agent.token })).status,
    ).toBe(200);
    expect(
      (await api(`${base(w.account.id)}/${hidden.displayId}`, { token: w.admin.token })).status,
    ).toBe(200);
  });

  it("refuses bots (not on the bot whitelist)", async () => {
    const w = await plainWorld();
    const conv = await createConversation(w.account.id, w.inbox.id);
    expectError(await api(`${base(w.account.id)}/${conv.displayId}`, { token: w.bot.token }), 401);
  });

  it("reports can_reply false for a blocked contact and the web widget channel", async () => {
    const w = await plainWorld();
    const widget = await createInbox(w.account.id, { channelType: "Channel::WebWidget" });
    const conv = await createConversation(w.account.id, widget.id);
    const res = await api(`${base(w.account.id)}/${conv.displayId}`, { token: w.admin.token });
    expect(res.body.meta.channel).toBe("Channel::WebWidget");
    expect(res.body.can_reply).toBe(true);
    expect(res.body.meta.hmac_verified).toBe(false);
    const blocked = await createContact(w.account.id, { blocked: true });
    const c2 = await createConversation(w.account.id, widget.id, { contactId: blocked.id });
    const r2 = await api(`${base(w.account.id)}/${c2.displayId}`, { token: w.admin.token });
    expect(r2.body.can_reply).toBe(false);
  });
});

describe("bot inbox attachment", () => {
  it("a bot whose inbox link is inactive cannot create there", async () => {
    const w = await plainWorld();
    const bot = await createAgentBot({ accountId: w.account.id });
    await attachBot(w.account.id, w.plain.id, bot.id);
    await db()
      .update(t.agentBotInboxes)
      .set({ status: "inactive" })
      .where(eq(t.agentBotInboxes.inboxId, w.plain.id));
    const res = await api(base(w.account.id), {
      token: bot.token,
      body: { inbox_id: w.plain.id, contact_id: w.contact.id },
    });
    expectError(res, 404, "not_found");
    expect(await conversationsOfAccount(w.account.id)).toHaveLength(0);
  });
});

import { describe, expect, it } from "vitest";
import { createAccount, createInbox } from "../../support/factories";
import {
  createPublicContact,
  createPublicConversation,
  createPublicWorld,
  pub,
} from "../../support/factories-public";
import { api, expectError } from "../../support/http";

/** Every contact-level call on one conversation, as [method, suffix, body]. */
const CALLS: [string, string, unknown][] = [
  ["GET", "", undefined],
  ["POST", "/toggle_status", undefined],
  ["POST", "/toggle_typing", { typing_status: "on" }],
  ["POST", "/update_last_seen", undefined],
  ["GET", "/messages", undefined],
  ["POST", "/messages", { content: "let me in" }],
];

async function expectAll404(
  base: string,
  sourceId: string,
  conversationId: number,
  messageId: number,
) {
  const path = `${base}/contacts/${sourceId}/conversations/${conversationId}`;
  for (const [method, suffix, body] of CALLS) {
    const res = await pub(`${path}${suffix}`, { method, body });
    expectError(res, 404, "not_found");
  }
  const patch = { method: "PATCH", body: { submitted_values: [{ value: "x" }] } };
  expectError(await pub(`${path}/messages/${messageId}`, patch), 404, "not_found");
}

describe("a contact reaches only its own conversations", () => {
  it("a second contact of the same inbox gets 404 on the first contact's conversation", async () => {
    const w = await createPublicWorld();
    const first = await createPublicConversation(w.base);
    const message = await api(
      `/api/v1/accounts/${w.account.id}/conversations/${first.conversation.id}/messages`,
      { token: w.admin.token, body: { content: "Pick", content_type: "input_select" } },
    );
    const second = await createPublicContact(w.base);
    await expectAll404(w.base, second.source_id, first.conversation.id, message.body.id);
    const list = await pub(`${w.base}/contacts/${second.source_id}/conversations`);
    expect(list.body).toEqual([]);
    // Nothing changed for the owner.
    const own = await pub(first.path);
    expect(own.body).toMatchObject({
      status: "open",
      contact_last_seen_at: 0,
      messages: [{ id: message.body.id }],
    });
    expect(own.body.messages[0].content_attributes).toEqual({});
  });

  it("a contact of another inbox, even of the same account, gets 404", async () => {
    const w = await createPublicWorld();
    const first = await createPublicConversation(w.base);
    const other = await createInbox(w.account.id);
    const stranger = await createPublicContact(other.inboxIdentifier);
    // Its own source_id under this inbox is unknown here …
    expectError(await pub(`${w.base}/contacts/${stranger.source_id}/conversations`), 404);
    // … and under its own inbox it cannot reach this inbox's conversation.
    await expectAll404(other.inboxIdentifier, stranger.source_id, first.conversation.id, 1);
  });

  it("an inbox of another account never reaches this account's conversations", async () => {
    const w = await createPublicWorld();
    const first = await createPublicConversation(w.base);
    const otherAccount = await createAccount();
    const otherInbox = await createInbox(otherAccount.id);
    // Display ids are per account: the stranger has none, so this id names nothing of its own.
    const stranger = await createPublicContact(otherInbox.inboxIdentifier);
    await expectAll404(otherInbox.inboxIdentifier, stranger.source_id, first.conversation.id, 1);
    expectError(
      await pub(`${otherInbox.inboxIdentifier}/contacts/${first.contact.source_id}`),
      404,
    );
  });

  it("an agent's conversation with the same contact through another contact_inbox stays hidden", async () => {
    const w = await createPublicWorld();
    const visitor = await createPublicConversation(w.base);
    // An agent opens a conversation for this contact with a new source_id in the same inbox.
    const made = await api(`/api/v1/accounts/${w.account.id}/conversations`, {
      token: w.admin.token,
      body: { inbox_id: w.inbox.id, contact_id: visitor.contact.id, source_id: "agent-made" },
    });
    expect(made.status).toBe(200);
    const list = await pub(`${w.base}/contacts/${visitor.contact.source_id}/conversations`);
    expect(list.body.map((c: { id: number }) => c.id)).toEqual([visitor.conversation.id]);
    await expectAll404(w.base, visitor.contact.source_id, made.body.id, 1);
    // The other contact_inbox is a session of its own.
    expect((await pub(`${w.base}/contacts/agent-made/conversations/${made.body.id}`)).status).toBe(
      200,
    );
  });
});

describe("private notes never reach the public API", () => {
  it("is absent from every public response", async () => {
    const w = await createPublicWorld();
    const { contact, conversation, path } = await createPublicConversation(w.base);
    const secret = "PRIVATE-NOTE-7f3a";
    const accountPath = `/api/v1/accounts/${w.account.id}/conversations/${conversation.id}/messages`;
    const public1 = await api(accountPath, {
      token: w.admin.token,
      body: { content: "visible reply" },
    });
    const note = await api(accountPath, {
      token: w.admin.token,
      body: { content: secret, private: true },
    });
    expect(note.status).toBe(200);
    expect(note.body.private).toBe(true);

    const responses = [
      await pub(`${w.base}/contacts/${contact.source_id}`),
      await pub(`${w.base}/contacts/${contact.source_id}`, {
        method: "PATCH",
        body: { name: "N" },
      }),
      await pub(`${w.base}/contacts/${contact.source_id}/conversations`),
      await pub(path),
      await pub(`${path}/messages`),
      await pub(`${path}/messages?before=${note.body.id + 1}`),
      await pub(`${path}/messages`, { method: "POST", body: { content: "hi" } }),
      await pub(`${path}/toggle_status`, { method: "POST" }),
      await pub(`${path}/messages/${note.body.id}`, {
        method: "PATCH",
        body: { submitted_values: [{ value: "x" }] },
      }),
      await pub(`${w.base}/contacts/${contact.source_id}/conversations`, { method: "POST" }),
    ];
    for (const res of responses) {
      expect(JSON.stringify(res.body)).not.toContain(secret);
      expect(JSON.stringify(res.body)).not.toContain('"private"');
    }
    const messages = responses[4]?.body as { id: number }[];
    expect(messages.map((m) => m.id)).toEqual([public1.body.id]);
    expect(responses[8]?.status).toBe(404);
  });

  it("never shows internal fields", async () => {
    const w = await createPublicWorld();
    const { contact, path } = await createPublicConversation(w.base);
    const bodies = [
      (await pub(w.base)).body,
      (await pub(`${w.base}/contacts/${contact.source_id}`)).body,
      (await pub(path)).body,
    ];
    const text = JSON.stringify(bodies);
    for (const key of [
      "hmac_token",
      "webhook_url",
      "assignee",
      "team_id",
      "idempotency_key",
      '"secret"',
      "sender_type",
    ]) {
      expect(text).not.toContain(key);
    }
  });
});

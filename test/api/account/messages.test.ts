import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { describeAuthMatrix } from "../../support/auth-matrix";
import { addInboxMember, createAgent, createWorld } from "../../support/factories";
import { createConversationIn } from "../../support/factories-conversations";
import { TINY_PNG } from "../../support/files";
import { api, expectError } from "../../support/http";
import { postStored } from "../../support/posted";

async function setup() {
  const world = await createWorld();
  await addInboxMember(world.inbox.id, world.agent.id);
  const { conversation, contact, contactInbox } = await createConversationIn(
    world.account.id,
    world.inbox.id,
  );
  const path = `/api/v1/accounts/${world.account.id}/conversations/${conversation.displayId}/messages`;
  return { ...world, conversation, contact, contactInbox, path };
}

/** A post, once D1 holds it (the post is answered at the room's commit: tests read D1 after). */
const send = (path: string, token: string, body: unknown, headers: Record<string, string> = {}) =>
  postStored(path, { token, body, headers });

describe("POST messages", () => {
  it("sends an outgoing message with the spec's message fields", async () => {
    const s = await setup();
    const res = await send(s.path, s.agent.token, { content: "Hello there", echo_id: "e-1" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      content: "Hello there",
      account_id: s.account.id,
      inbox_id: s.inbox.id,
      conversation_id: s.conversation.displayId,
      message_type: 1,
      seq: 1,
      private: false,
      status: "sent",
      content_type: "text",
      content_attributes: {},
      sender_type: "User",
      sender_id: s.agent.id,
      echo_id: "e-1",
      external_source_ids: {},
      additional_attributes: {},
      sentiment: {},
      attachments: [],
      attachment: null,
      conversation: { assignee_id: null, contact_inbox: { source_id: s.contactInbox.sourceId } },
      sender: { id: s.agent.id, type: "user" },
    });
    for (const key of ["id", "created_at", "updated_at"]) {
      expect(typeof res.body[key]).toBe("number");
    }
  });

  it("moves the conversation's clocks as Chatwoot does", async () => {
    const s = await setup();
    await send(s.path, s.admin.token, { content: "I need help", message_type: "incoming" });
    const detail = await env.DB.prepare(
      "SELECT waiting_since, first_reply_created_at, last_activity_at FROM conversations WHERE id = ?",
    )
      .bind(s.conversation.id)
      .first<{ waiting_since: number | null; first_reply_created_at: number | null }>();
    expect(detail?.waiting_since).toEqual(expect.any(Number));
    expect(detail?.first_reply_created_at).toBeNull();
    await send(s.path, s.agent.token, { content: "a note", private: true });
    await send(s.path, s.agent.token, { content: "On it!" });
    const after = await env.DB.prepare(
      "SELECT waiting_since, first_reply_created_at FROM conversations WHERE id = ?",
    )
      .bind(s.conversation.id)
      .first<{ waiting_since: number | null; first_reply_created_at: number | null }>();
    expect(after?.waiting_since).toBeNull();
    expect(after?.first_reply_created_at).toEqual(expect.any(Number));
    const contact = await env.DB.prepare("SELECT last_activity_at FROM contacts WHERE id = ?")
      .bind(s.contact.id)
      .first<{ last_activity_at: number | null }>();
    expect(contact?.last_activity_at).toEqual(expect.any(Number));
  });

  it("records incoming messages as sent by the contact and reopens a resolved conversation", async () => {
    const s = await setup();
    const status = async () =>
      (
        await env.DB.prepare("SELECT status FROM conversations WHERE id = ?")
          .bind(s.conversation.id)
          .first<{ status: string }>()
      )?.status;
    const resolve = () =>
      env.DB.prepare("UPDATE conversations SET status = 'resolved' WHERE id = ?")
        .bind(s.conversation.id)
        .run();
    await resolve();
    const res = await send(s.path, s.agent.token, { content: "Hello again", message_type: 0 });
    expect(res.body).toMatchObject({
      message_type: 0,
      sender_type: "Contact",
      sender_id: s.contact.id,
    });
    // The inbox has an active bot: the conversation goes back to the bot first.
    expect(await status()).toBe("pending");
    await env.DB.prepare("DELETE FROM agent_bot_inboxes WHERE inbox_id = ?").bind(s.inbox.id).run();
    await resolve();
    await send(s.path, s.agent.token, { content: "Still there?", message_type: "incoming" });
    expect(await status()).toBe("open");
    await send(s.path, s.agent.token, { content: "Yes" });
    expect(await status()).toBe("open");
  });

  it("keeps 20 concurrent sends, in one order, with consecutive seq", async () => {
    const s = await setup();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        send(s.path, s.agent.token, { content: `message ${i}` }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    const seqs = results.map((r) => r.body.seq as number).sort((a, b) => a - b);
    expect(seqs).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    const stored = await env.DB.prepare(
      "SELECT seq, content FROM messages WHERE conversation_id = ? ORDER BY seq",
    )
      .bind(s.conversation.id)
      .all<{ seq: number; content: string }>();
    expect(stored.results.map((r) => r.seq)).toEqual(seqs);
    expect(new Set(stored.results.map((r) => r.content)).size).toBe(20);
  });

  it("makes retries with the same Idempotency-Key return the first message", async () => {
    const s = await setup();
    const headers = { "Idempotency-Key": "retry-abc" };
    const [a, b] = await Promise.all([
      send(s.path, s.agent.token, { content: "once" }, headers),
      send(s.path, s.agent.token, { content: "once" }, headers),
    ]);
    const c = await send(s.path, s.agent.token, { content: "once" }, headers);
    expect(new Set([a.body.id, b.body.id, c.body.id]).size).toBe(1);
    expect(c.headers.get("idempotent-replayed")).toBe("true");
    const count = await env.DB.prepare(
      "SELECT count(*) AS n FROM messages WHERE conversation_id = ?",
    )
      .bind(s.conversation.id)
      .first<{ n: number }>();
    expect(count?.n).toBe(1);
    expectError(
      await send(s.path, s.agent.token, { content: "x" }, { "Idempotency-Key": "" }),
      422,
    );
  });

  it("stores multipart attachments in R2, also when every field is text", async () => {
    const s = await setup();
    const form = new FormData();
    form.append("content", "see attached");
    form.append("private", "true");
    form.append("content_attributes", JSON.stringify({ in_reply_to: 5 }));
    form.append("attachments[]", new File(["hello file"], "notes.txt", { type: "text/plain" }));
    form.append("attachments[]", new File([TINY_PNG], "pic.png", { type: "image/png" }));
    const res = await api(s.path, { method: "POST", token: s.agent.token, raw: form });
    expect(res.status).toBe(200);
    expect(res.body.private).toBe(true);
    expect(res.body.content_attributes).toEqual({ in_reply_to: 5 });
    expect(res.body.attachments.map((a: { file_type: string }) => a.file_type)).toEqual([
      "file",
      "image",
    ]);
    const url = new URL(res.body.attachments[0].data_url);
    const file = await api(url.pathname);
    expect(file.status).toBe(200);
    expect(file.body).toBe("hello file");
    const attachmentOnly = new FormData();
    attachmentOnly.append("attachments", new File(["x"], "x.bin"));
    const only = await api(s.path, { method: "POST", token: s.agent.token, raw: attachmentOnly });
    expect(only.status).toBe(200);
    expect(only.body.content).toBeNull();
  });

  it("rejects bad input with 422 and stores nothing", async () => {
    const s = await setup();
    expectError(await send(s.path, s.agent.token, {}), 422);
    expectError(await send(s.path, s.agent.token, { content: "   " }), 422);
    expectError(await send(s.path, s.agent.token, { content: 5 }), 422);
    expectError(await send(s.path, s.agent.token, { content: "x", message_type: "activity" }), 422);
    expectError(
      await send(s.path, s.agent.token, { content: "x", content_type: "video_call" }),
      422,
    );
    expectError(await send(s.path, s.agent.token, { content: "x".repeat(150_001) }), 422);
    expectError(await api(s.path, { method: "POST", token: s.agent.token, raw: "{" }), 400);
    const count = await env.DB.prepare(
      "SELECT count(*) AS n FROM messages WHERE conversation_id = ?",
    )
      .bind(s.conversation.id)
      .first<{ n: number }>();
    expect(count?.n).toBe(0);
  });

  it("refuses incoming messages outside API inboxes", async () => {
    const s = await setup();
    await env.DB.prepare("UPDATE inboxes SET channel_type = 'Channel::WebWidget' WHERE id = ?")
      .bind(s.inbox.id)
      .run();
    const err = expectError(
      await send(s.path, s.admin.token, { content: "x", message_type: "incoming" }),
      422,
    );
    expect(err.error).toContain("Api inboxes");
  });

  it("hides conversations of inboxes the agent is not in, and other accounts'", async () => {
    const s = await setup();
    const outsider = await createAgent(s.account.id);
    expectError(await send(s.path, outsider.token, { content: "x" }), 404);
    const other = await createWorld();
    const foreign = `/api/v1/accounts/${other.account.id}/conversations/${s.conversation.displayId}/messages`;
    expectError(await send(foreign, other.admin.token, { content: "x" }), 404);
    expectError(
      await send(`${s.path.replace(/\/\d+\/messages$/, "/999999/messages")}`, s.admin.token, {
        content: "x",
      }),
      404,
    );
  });

  it("lets the inbox's agent bot reply", async () => {
    const s = await setup();
    const res = await send(s.path, s.bot.token, { content: "beep" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      sender_type: "AgentBot",
      sender_id: s.bot.id,
      sender: { type: "agent_bot" },
    });
  });
});

describe("GET messages", () => {
  it("returns the latest 20 oldest-first, and pages with before / after", async () => {
    const s = await setup();
    for (let i = 1; i <= 25; i++) {
      await send(s.path, s.agent.token, { content: `m${i}` });
    }
    const latest = await api(s.path, { token: s.agent.token });
    expect(latest.status).toBe(200);
    expect(latest.body.payload.map((m: { content: string }) => m.content)).toEqual(
      Array.from({ length: 20 }, (_, i) => `m${i + 6}`),
    );
    expect(latest.body.meta).toMatchObject({
      labels: [],
      contact: { id: s.contact.id },
      assignee: null,
    });
    const firstId = latest.body.payload[0].id;
    const older = await api(`${s.path}?before=${firstId}`, { token: s.agent.token });
    expect(older.body.payload.map((m: { content: string }) => m.content)).toEqual([
      "m1",
      "m2",
      "m3",
      "m4",
      "m5",
    ]);
    const newer = await api(`${s.path}?after=${older.body.payload[4].id}`, {
      token: s.agent.token,
    });
    expect(newer.body.payload).toHaveLength(20);
    expect(newer.body.payload[0].content).toBe("m6");
    expectError(await api(`${s.path}?before=abc`, { token: s.agent.token }), 422);
  });
});

describe("PATCH and DELETE messages", () => {
  it("lets the sender edit and delete; others get 403", async () => {
    const s = await setup();
    const sent = await send(s.path, s.agent.token, { content: "tpyo" });
    const url = `${s.path}/${sent.body.id}`;
    const edited = await api(url, {
      method: "PATCH",
      token: s.agent.token,
      body: { content: "typo" },
    });
    expect(edited.body.content).toBe("typo");
    const other = await createAgent(s.account.id);
    await addInboxMemberSafe(s.inbox.id, other.id);
    expectError(
      await api(url, { method: "PATCH", token: other.token, body: { content: "x" } }),
      403,
    );
    expectError(await api(url, { method: "DELETE", token: other.token }), 403);
    const deleted = await api(url, { method: "DELETE", token: s.agent.token });
    expect(deleted.body).toMatchObject({
      content: "This message was deleted",
      content_attributes: { deleted: true },
    });
    expectError(
      await api(url, { method: "PATCH", token: s.agent.token, body: { content: "back" } }),
      403,
    );
    expectError(await api(`${s.path}/999999`, { method: "DELETE", token: s.admin.token }), 404);
  });

  it("accepts delivery status only for API inboxes", async () => {
    const s = await setup();
    const sent = await send(s.path, s.agent.token, { content: "hi" });
    const url = `${s.path}/${sent.body.id}`;
    const ok = await api(url, { method: "PATCH", token: s.agent.token, body: { status: "read" } });
    expect(ok.body.status).toBe("read");
    expectError(
      await api(url, { method: "PATCH", token: s.agent.token, body: { status: "seen" } }),
      422,
    );
    await env.DB.prepare("UPDATE inboxes SET channel_type = 'Channel::WebWidget' WHERE id = ?")
      .bind(s.inbox.id)
      .run();
    expectError(
      await api(url, { method: "PATCH", token: s.agent.token, body: { status: "read" } }),
      403,
    );
  });
});

async function addInboxMemberSafe(inboxId: number, userId: number) {
  await addInboxMember(inboxId, userId);
}

const messagesPath = async (w: Awaited<ReturnType<typeof createWorld>>) => {
  const { conversation } = await createConversationIn(w.account.id, w.inbox.id);
  return `/api/v1/accounts/${w.account.id}/conversations/${conversation.displayId}/messages`;
};

describeAuthMatrix("POST messages", {
  method: "POST",
  path: messagesPath,
  body: { content: "x" },
  allowBots: true,
});
describeAuthMatrix("GET messages", { method: "GET", path: messagesPath });

describe("ConversationRoom seq", () => {
  it("continues after rows written to D1 behind the room's back", async () => {
    const s = await setup();
    const first = await send(s.path, s.agent.token, { content: "one" });
    expect(first.body.seq).toBe(1);
    await env.DB.prepare(
      "INSERT INTO messages (account_id, inbox_id, conversation_id, seq, content, message_type) VALUES (?, ?, ?, 2, 'imported', 0)",
    )
      .bind(s.account.id, s.inbox.id, s.conversation.id)
      .run();
    const next = await send(s.path, s.agent.token, { content: "three" });
    expect(next.status).toBe(200);
    // Answered at the room's commit with the log's numbers; D1 has it renumbered after the
    // imported row (docs/realtime.md: imports are survived, not a supported way in).
    const three = () =>
      env.DB.prepare("SELECT seq FROM messages WHERE content = 'three' AND conversation_id = ?")
        .bind(s.conversation.id)
        .first<{ seq: number }>();
    let row = await three();
    for (const deadline = Date.now() + 40_000; !row && Date.now() < deadline; ) {
      await new Promise((r) => setTimeout(r, 20));
      row = await three();
    }
    expect(row?.seq).toBe(3);
  });
});

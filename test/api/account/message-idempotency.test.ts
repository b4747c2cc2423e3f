import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { addInboxMember, createWorld } from "../../support/factories";
import { createConversationIn } from "../../support/factories-conversations";
import { createPublicConversation, createPublicWorld, pub } from "../../support/factories-public";
import { api } from "../../support/http";
import { postStored } from "../../support/posted";

const stored = async (conversationId: number) =>
  (
    await env.DB.prepare(
      "SELECT id, content, private, sender_type, sender_id FROM messages WHERE conversation_id = ? ORDER BY seq",
    )
      .bind(conversationId)
      .all<{
        id: number;
        content: string;
        private: number;
        sender_type: string;
        sender_id: number;
      }>()
  ).results;

const conversationIdOf = async (uuid: string) =>
  (
    await env.DB.prepare("SELECT id FROM conversations WHERE uuid = ?")
      .bind(uuid)
      .first<{ id: number }>()
  )?.id ?? 0;

async function agentsConversation() {
  const world = await createWorld();
  await addInboxMember(world.inbox.id, world.agent.id);
  const { conversation } = await createConversationIn(world.account.id, world.inbox.id);
  const path = `/api/v1/accounts/${world.account.id}/conversations/${conversation.displayId}/messages`;
  return { ...world, conversation, path };
}

describe("idempotency keys belong to their sender", () => {
  it("never answers a visitor's echo_id with an agent's private note of the same key", async () => {
    const w = await createPublicWorld();
    const s = await createPublicConversation(w.base);
    const path = `/api/v1/accounts/${w.account.id}/conversations/${s.conversation.id}/messages`;
    const note = await postStored(path, {
      token: w.admin.token,
      body: { content: "the customer is difficult", private: true },
      headers: { "Idempotency-Key": "echo:X" },
    });
    expect(note.status).toBe(200);
    const visitor = await pub(`${s.path}/messages`, {
      method: "POST",
      body: { content: "my own message", echo_id: "X" },
    });
    expect(visitor.status).toBe(200);
    expect(visitor.body).toMatchObject({
      content: "my own message",
      echo_id: "X",
      message_type: 0,
    });
    expect(visitor.body.id).not.toBe(note.body.id);
    expect(JSON.stringify(visitor.body)).not.toContain("difficult");
    const rows = await stored(await conversationIdOf(s.conversation.uuid));
    expect(rows.map((r) => [r.content, r.sender_type])).toEqual([
      ["the customer is difficult", "User"],
      ["my own message", "Contact"],
    ]);
    // The visitor's retry is still answered with its own first message.
    const retry = await pub(`${s.path}/messages`, {
      method: "POST",
      body: { content: "my own message", echo_id: "X" },
    });
    expect(retry.body.id).toBe(visitor.body.id);
    expect(await stored(await conversationIdOf(s.conversation.uuid))).toHaveLength(2);
  });

  it("stores one message per agent for the same Idempotency-Key, and one per agent's retries", async () => {
    const s = await agentsConversation();
    const headers = { "Idempotency-Key": "same-key" };
    const send = (token: string, content: string) =>
      postStored(s.path, { token, body: { content }, headers });
    const first = await send(s.agent.token, "from the agent");
    const other = await send(s.admin.token, "from the admin");
    const retry = await send(s.agent.token, "from the agent");
    expect(other.body.id).not.toBe(first.body.id);
    expect(other.body.content).toBe("from the admin");
    expect(other.headers.get("idempotent-replayed")).toBe("false");
    expect(retry.body.id).toBe(first.body.id);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    const rows = await stored(s.conversation.id);
    expect(rows.map((r) => [r.content, r.sender_id])).toEqual([
      ["from the agent", s.agent.id],
      ["from the admin", s.admin.id],
    ]);
  });

  it("de-duplicates the account API's echo_id retries (Chatwoot clients send one)", async () => {
    const s = await agentsConversation();
    const body = { content: "sent once", echo_id: "client-42" };
    const [a, b] = await Promise.all([
      postStored(s.path, { token: s.agent.token, body }),
      postStored(s.path, { token: s.agent.token, body }),
    ]);
    const c = await postStored(s.path, { token: s.agent.token, body });
    expect(new Set([a.body.id, b.body.id, c.body.id]).size).toBe(1);
    expect(c.headers.get("idempotent-replayed")).toBe("true");
    expect(c.body).toMatchObject({ content: "sent once", echo_id: "client-42" });
    // Another agent's same echo_id is their own message.
    const other = await postStored(s.path, { token: s.admin.token, body });
    expect(other.body.id).not.toBe(a.body.id);
    expect(await stored(s.conversation.id)).toHaveLength(2);
  });
});

import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as t from "../../worker/db/schema";
import { createWorld, db } from "../support/factories";
import { createConversationIn } from "../support/factories-conversations";
import { api } from "../support/http";
import { postStored } from "../support/posted";

async function setup(conversations: number) {
  const world = await createWorld();
  const bases: { id: number; path: string }[] = [];
  for (let i = 0; i < conversations; i++) {
    const { conversation } = await createConversationIn(world.account.id, world.inbox.id);
    bases.push({
      id: conversation.id,
      path: `/api/v1/accounts/${world.account.id}/conversations/${conversation.displayId}/messages`,
    });
  }
  return { ...world, bases };
}

const stored = (conversationId: number) =>
  db()
    .select({ id: t.messages.id, seq: t.messages.seq })
    .from(t.messages)
    .where(eq(t.messages.conversationId, conversationId))
    .orderBy(t.messages.seq)
    .all();

/**
 * Message ids come from blocks each room leases from D1 (`id_leases`), not from one insert at
 * a time: unique across rooms writing at once, increasing in seq order within a room, and
 * never one a row written straight into D1 already holds.
 */
describe("message ids leased by rooms", () => {
  it("are unique across rooms writing at once and increase with seq in each room", async () => {
    const s = await setup(4);
    const posts = s.bases.flatMap((b) =>
      Array.from({ length: 12 }, (_, i) =>
        postStored(b.path, { token: s.admin.token, body: { content: `m${i}` } }),
      ),
    );
    const answers = await Promise.all(posts);
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const all: number[] = [];
    for (const b of s.bases) {
      const rows = await stored(b.id);
      expect(rows.map((r) => r.seq)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
      const ids = rows.map((r) => r.id);
      expect(ids).toEqual([...ids].sort((x, y) => x - y));
      all.push(...ids);
    }
    expect(new Set(all).size).toBe(48);
    expect(new Set(answers.map((a) => a.body.id))).toEqual(new Set(all));
    // Every id handed out lies below the lease counter: the next block cannot reuse one.
    const lease = await env.DB.prepare("SELECT next_id FROM id_leases WHERE name = 'messages'")
      .first<{ next_id: number }>()
      .then((r) => r?.next_id ?? 0);
    expect(Math.max(...all)).toBeLessThan(lease);
  });

  it("leases above an id written into D1 behind the room's back, in the room's block", async () => {
    const s = await setup(2);
    const [room, other] = s.bases as [(typeof s.bases)[0], (typeof s.bases)[0]];
    const first = await postStored(room.path, { token: s.admin.token, body: { content: "one" } });
    expect(first.status).toBe(200);
    // The id the room would hand out next, taken by a row of another conversation.
    const taken = first.body.id + 1;
    await env.DB.prepare(
      "INSERT INTO messages (id, account_id, inbox_id, conversation_id, seq, content, message_type) VALUES (?, ?, ?, ?, 1, 'imported', 0)",
    )
      .bind(taken, s.account.id, s.inbox.id, other.id)
      .run();
    const next = await api(room.path, { token: s.admin.token, body: { content: "two" } });
    expect(next.status).toBe(200);
    expect(next.body.seq).toBe(2);
    // Answered at the room's commit with the log's id; D1 has it under a new block's, above.
    let rows = await stored(room.id);
    for (const deadline = Date.now() + 40_000; rows.length < 2 && Date.now() < deadline; ) {
      await new Promise((r) => setTimeout(r, 20));
      rows = await stored(room.id);
    }
    expect(rows[0]?.id).toBe(first.body.id);
    expect(rows[1]?.id).toBeGreaterThan(taken);
    expect((await stored(other.id)).map((r) => r.id)).toEqual([taken]);
  });
});

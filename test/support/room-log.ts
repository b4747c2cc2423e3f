import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import * as t from "../../worker/db/schema";
import { addInboxMember, createWorld, db } from "./factories";
import { createConversationIn } from "./factories-conversations";
import { type Frame, type LiveSocket, openSocket } from "./ws";

/** A conversation with an inbox agent's socket into its room (ready). */
export async function agentInRoom() {
  const world = await createWorld();
  await addInboxMember(world.inbox.id, world.agent.id);
  const { conversation } = await createConversationIn(world.account.id, world.inbox.id);
  const base = `/api/v1/accounts/${world.account.id}/conversations/${conversation.displayId}`;
  const socket = await openSocket(`${base}/live`, { api_access_token: world.agent.token });
  await socket.next("ready");
  return { ...world, conversation, base, socket };
}

/** The conversation's messages as D1 holds them, in seq order. */
export const stored = (conversationId: number) =>
  db()
    .select()
    .from(t.messages)
    .where(eq(t.messages.conversationId, conversationId))
    .orderBy(t.messages.seq)
    .all();

/** Until D1 holds `n` messages of the conversation (the room's log is written behind the acks). */
export async function untilStored(conversationId: number, n: number) {
  for (const deadline = Date.now() + 40_000; Date.now() < deadline; ) {
    const rows = await stored(conversationId);
    if (rows.length >= n) {
      return rows;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`D1 never held ${n} messages`);
}

/** The ack or error frame answering `echo`, whichever comes; up to 15 s (a loaded machine). */
export async function answer(socket: LiveSocket, echo: string): Promise<Frame> {
  for (const deadline = Date.now() + 15_000; Date.now() < deadline; ) {
    const hit = socket.frames.find(
      (f) => (f.event === "ack" || f.event === "error") && f.data.echo_id === echo,
    );
    if (hit) {
      return hit;
    }
    await new Promise((r) => setTimeout(r, 30));
  }
  throw new Error(`no answer for ${echo}`);
}

/** The conversation's room (a stub that saw its object aborted is broken: take a new one). */
export const roomOf = (accountId: number, conversationId: number) =>
  env.ROOMS.get(env.ROOMS.idFromName(`${accountId}:${conversationId}`));

/** The message ids of the conversation's message_created outbox rows, in outbox order. */
export const outboxOf = (conversationId: number) =>
  env.DB.prepare(
    "SELECT json_extract(payload, '$.message_id') AS id FROM event_outbox WHERE conversation_id = ? AND name = 'message_created' ORDER BY id",
  )
    .bind(conversationId)
    .all<{ id: number }>()
    .then((r) => r.results.map((x) => x.id));

/** Every message whose content starts with `marker` fails to insert into D1 while it stands. */
export async function failInserts(marker: string) {
  const name = `fail_${marker.replace(/\W/g, "_")}`;
  await env.DB.prepare(
    `CREATE TRIGGER ${name} BEFORE INSERT ON messages WHEN NEW.content LIKE '${marker}%' BEGIN SELECT RAISE(ABORT, 'injected D1 failure'); END`,
  ).run();
  return () => env.DB.prepare(`DROP TRIGGER ${name}`).run();
}

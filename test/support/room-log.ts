import { env, runInDurableObject } from "cloudflare:test";
import { eq } from "drizzle-orm";
import * as t from "../../worker/db/schema";
import type { WriterCall } from "../../worker/modules/conversation-room/log-writer";
import { MessageLog } from "../../worker/modules/conversation-room/queries.wal";
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

/**
 * Until the room's storage holds no logged message: entries D1 has leave it with the next
 * append's commit, or once the room is idle (replicator.ts), not the moment D1 has them.
 */
export async function untilLogTrimmed(room: DurableObjectStub) {
  for (const deadline = Date.now() + 15_000; Date.now() < deadline; ) {
    const n = await runInDurableObject(room, (_r, state) =>
      Number(state.storage.sql.exec("SELECT count(*) AS n FROM message_log").one().n),
    );
    if (n === 0) {
      return;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("the room's storage kept logged messages D1 has");
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

/** Sends `contents` on the socket at once, and waits for their acks (in order). */
export async function sendAll(socket: LiveSocket, contents: string[]): Promise<Frame[]> {
  contents.forEach((content, i) => {
    socket.send({ type: "message.create", echo_id: `${content}-${i}`, content });
  });
  const acks: Frame[] = [];
  for (const _ of contents) {
    acks.push(await socket.next("ack", 15_000));
  }
  return acks;
}

/**
 * The room's log as a call to the writer, and the room stopped with it (its alarm gone, its
 * memory lost): the test makes the call the room would have made. `take`: the log is emptied
 * too, so that the room, woken by an alarm its last failed write set meanwhile, has nothing to
 * write again.
 */
export async function logOf(room: () => DurableObjectStub, take = false): Promise<WriterCall> {
  const entries = await runInDurableObject(room(), async (_r, state) => {
    await state.storage.deleteAlarm();
    const log = new MessageLog(state.storage.sql);
    const oldest = log.oldest(1_000);
    if (take) {
      log.remove(oldest.map((e) => e.id));
    }
    return oldest;
  });
  await runInDurableObject(room(), (_r, state) => state.abort("stopped by the test")).catch(
    () => undefined,
  );
  return { entries: entries.map(({ id, seq, req }) => ({ id, seq, req })), frames: [], outbox: [] };
}

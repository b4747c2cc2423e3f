import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { ActionReply, SocketIdentity } from "../../worker/realtime/protocol";
import type { Holder } from "../../worker/realtime/revocation";
import { agentInRoom, answer, stored, untilLogTrimmed, untilStored } from "../support/room-log";
import type { Frame, LiveSocket } from "../support/ws";

/** A conversation with an inbox agent's socket into its room, and the room's stub. */
async function setup() {
  const world = await agentInRoom();
  const { account, conversation } = world;
  const room = env.ROOMS.get(env.ROOMS.idFromName(`${account.id}:${conversation.id}`));
  return { ...world, room };
}

async function send(socket: LiveSocket, echo: string): Promise<Frame> {
  socket.send({ type: "message.create", echo_id: echo, content: echo });
  return answer(socket, echo);
}

type Room = ReturnType<typeof env.ROOMS.get>;

/** The room's count of D1 reads made before a commit (kept in its storage). */
const readsOf = (room: Room) =>
  runInDurableObject(room, (_r, state) => state.storage.kv.get<number>("d1_reads") ?? 0);

describe("a socket message's access and idempotency, known to the room", () => {
  it("commits a warm room's socket messages without reading D1 first", async () => {
    const s = await setup();
    expect((await send(s.socket, "warm")).event).toBe("ack");
    const before = await readsOf(s.room);
    // The cold room read its row, counters and keys once.
    expect(before).toBeGreaterThan(0);
    const echoes = Array.from({ length: 20 }, (_, i) => `m${i}`);
    for (const echo of echoes) {
      s.socket.send({ type: "message.create", echo_id: echo, content: echo });
    }
    const acks = await Promise.all(echoes.map((e) => answer(s.socket, e)));
    expect(acks.every((a) => a.event === "ack" && a.data.duplicate === false)).toBe(true);
    expect(await readsOf(s.room)).toBe(before);
    const rows = await untilStored(s.conversation.id, 21);
    expect(rows.map((r) => r.echoId)).toEqual(["warm", ...echoes]);
    s.socket.close();
  });

  it("answers a retry whose message already left the log as a duplicate, from the keys it kept", async () => {
    const s = await setup();
    const first = await send(s.socket, "once");
    await untilStored(s.conversation.id, 1);
    await untilLogTrimmed(s.room);
    s.socket.frames.length = 0;
    const retry = await send(s.socket, "once");
    expect(retry.data).toMatchObject({ duplicate: true, id: first.data.id, seq: first.data.seq });
    expect((await send(s.socket, "next")).data.duplicate).toBe(false);
    expect((await untilStored(s.conversation.id, 2)).map((r) => r.echoId)).toEqual([
      "once",
      "next",
    ]);
    s.socket.close();
  });

  it("loads D1's keys once when it has never kept them (a room that lost its storage)", async () => {
    const s = await setup();
    const first = await send(s.socket, "before");
    await untilStored(s.conversation.id, 1);
    await runInDurableObject(s.room, (_r, state) => {
      state.storage.sql.exec("DELETE FROM kept_keys");
      state.storage.kv.delete("keys_loaded");
    });
    s.socket.frames.length = 0;
    const retry = await send(s.socket, "before");
    expect(retry.data).toMatchObject({ duplicate: true, id: first.data.id });
    const kept = await runInDurableObject(s.room, (_r, state) =>
      state.storage.sql.exec("SELECT key FROM kept_keys").toArray(),
    );
    expect(kept).toHaveLength(1);
    expect(String(kept[0]?.key)).toMatch(/echo:before$/);
    expect(await stored(s.conversation.id)).toHaveLength(1);
    s.socket.close();
  });

  it("refuses a message whose sender's access was revoked after its frame arrived, before it commits", async () => {
    const s = await setup();
    expect((await send(s.socket, "warm")).event).toBe("ack");
    const who: SocketIdentity = {
      role: "agent",
      id: s.agent.id,
      name: "agent",
      kind: "user",
      origin: "",
    };
    const reply = await runInDurableObject(s.room, async (instance) => {
      const room = instance as unknown as {
        act(w: SocketIdentity, f: unknown): Promise<ActionReply>;
        revokeSockets(holders: Holder[], at: number): Promise<number>;
      };
      const acting = room.act(who, { type: "message.create", echo_id: "late", content: "late" });
      // The revocation reaches the room while the frame is being checked: D1 still says yes.
      await room.revokeSockets([{ kind: "user", id: s.agent.id }], Date.now());
      return acting;
    });
    expect(reply).toMatchObject({ event: "error", data: { code: "not_found", status: 404 } });
    const rows = await untilStored(s.conversation.id, 1);
    await new Promise((r) => setTimeout(r, 300));
    expect((await stored(s.conversation.id)).map((r) => r.echoId)).toEqual(["warm"]);
    expect(rows).toHaveLength(1);
  });
});

// A conversation change that passes the room while a group is being committed (its D1 reads
// awaited) drops the room's counters: the group still gets its counters, and the drop stands.
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { roomIdFor } from "../../worker/modules/conversation-room/stub";
import { agentInRoom } from "../support/room-log";

type Writer = { ids: { take(n: number): Promise<number[]> }; dropCounters(): void };

describe("the room's counters while a commit awaits its reads", () => {
  it("a change passing the room mid-commit does not fail the message", async () => {
    const { conversation, socket, ...world } = await agentInRoom();
    socket.send({ type: "message.create", echo_id: "e1", content: "first" });
    expect((await socket.next("ack", 15_000)).data.seq).toBe(1);
    expect((await socket.next("message.created")).data.content).toBe("first");

    // The room now holds counters; the next commit's id lease is where a change lands.
    const stub = env.ROOMS.get(roomIdFor(env, world.account.id, conversation.id));
    let dropped = 0;
    await runInDurableObject(stub, (room: unknown) => {
      const writer = (room as { writer: Writer }).writer;
      const take = writer.ids.take.bind(writer.ids);
      writer.ids.take = async (n) => {
        writer.ids.take = take;
        writer.dropCounters();
        dropped += 1;
        return take(n);
      };
    });
    socket.send({ type: "message.create", echo_id: "e2", content: "second" });
    const created = await socket.next("message.created", 15_000);
    const ack = await socket.next("ack", 15_000);
    expect(dropped).toBe(1);
    expect(ack.data.seq).toBe(2);
    expect(created.data.content).toBe("second");
    expect(typeof created.data.conversation.unread_count).toBe("number");
    socket.close();
  });
});

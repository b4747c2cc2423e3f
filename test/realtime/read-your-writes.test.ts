import { describe, expect, it } from "vitest";
import { addInboxMember, createWorld } from "../support/factories";
import { createConversationIn } from "../support/factories-conversations";
import { api } from "../support/http";
import { openSocket } from "../support/ws";

async function setup() {
  const world = await createWorld();
  await addInboxMember(world.inbox.id, world.agent.id);
  const { conversation } = await createConversationIn(world.account.id, world.inbox.id);
  const base = `/api/v1/accounts/${world.account.id}/conversations/${conversation.displayId}`;
  return { ...world, base };
}

/**
 * The write path's contract over HTTP (docs/realtime.md, "Read your writes, and crashes"): a
 * client that posts a message and then reads the conversation or its messages sees it, every
 * time, including while socket messages are written into the same room.
 */
describe("read your writes over HTTP", () => {
  it("shows each posted message in the very next read of the messages and the conversation", async () => {
    const s = await setup();
    const socket = await openSocket(`${s.base}/live`, { api_access_token: s.agent.token });
    await socket.next("ready");
    for (let i = 0; i < 5; i++) {
      // A socket message beside every post, so the room's writer is busy when the post lands.
      socket.send({ type: "message.create", echo_id: `beside-${i}`, content: `beside ${i}` });
      const posted = await api(`${s.base}/messages`, {
        token: s.admin.token,
        body: { content: `posted ${i}` },
      });
      expect(posted.status).toBe(200);
      const list = await api(`${s.base}/messages?after=${posted.body.seq - 1}`, {
        token: s.admin.token,
      });
      expect(list.body.payload.map((m: { id: number }) => m.id)).toContain(posted.body.id);
      const one = await api(s.base, { token: s.admin.token });
      expect(one.body.messages.map((m: { id: number }) => m.id)).toContain(posted.body.id);
    }
    socket.close();
  });
});

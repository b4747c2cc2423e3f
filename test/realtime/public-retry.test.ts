import { describe, expect, it } from "vitest";
import { createPublicConversation, createPublicWorld, pub } from "../support/factories-public";
import { failInserts, stored } from "../support/room-log";
import { openSocket, settle } from "../support/ws";

/**
 * The public API's posts are answered once D1 has the message (docs/realtime.md, "Read your
 * writes"): its reads are D1's. A visitor whose socket send went unanswered retries over HTTP
 * with the same echo_id (the widget does); if the socket's message is still only in the room's
 * log, that retry is answered once D1 has it too, not at once.
 */
describe("a public retry of a socket message D1 does not have yet", () => {
  it("is answered once D1 has it, with the socket's message, and a read after it sees it", {
    timeout: 60_000,
  }, async () => {
    const w = await createPublicWorld();
    const { path, conversation } = await createPublicConversation(w.base, { name: "Ada" });
    const marker = `retry${conversation.id}`;
    const heal = await failInserts(marker);
    const visitor = await openSocket(`/public/api/v1/inboxes/${path}/live`);
    await visitor.next("ready");
    const content = `${marker} hello`;
    const echo = `again-${conversation.id}`;
    visitor.send({ type: "message.create", echo_id: echo, content });
    const ack = await visitor.next("ack");
    expect(ack.data).toMatchObject({ echo_id: echo, duplicate: false });
    let answered = false;
    const retry = pub(`${path}/messages`, { method: "POST", body: { content, echo_id: echo } });
    void retry.then(() => {
      answered = true;
    });
    await settle(500);
    // D1 refuses the message, so only the room's log has it: the retry is not answered yet.
    expect(await stored(conversation.id)).toHaveLength(0);
    expect(answered).toBe(false);
    await heal();
    const res = await retry;
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(ack.data.id);
    // Answered: the public API's own read (D1's) has it, once.
    const listed = await pub(`${path}/messages`);
    const mine = (listed.body as { id: number; content: string }[]).filter(
      (m) => m.content === content,
    );
    expect(mine.map((m) => m.id)).toEqual([ack.data.id]);
    visitor.close();
  });
});

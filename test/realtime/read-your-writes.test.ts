import { describe, expect, it } from "vitest";
import { addInboxMember, createWorld } from "../support/factories";
import { createConversationIn } from "../support/factories-conversations";
import { api } from "../support/http";
import { failInserts, stored, untilStored } from "../support/room-log";
import { openSocket } from "../support/ws";

async function setup() {
  const world = await createWorld();
  await addInboxMember(world.inbox.id, world.agent.id);
  const { conversation } = await createConversationIn(world.account.id, world.inbox.id);
  const base = `/api/v1/accounts/${world.account.id}/conversations/${conversation.displayId}`;
  return { ...world, conversation, base };
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

type Listed = { id: number; seq: number; content: string };
const ids = (page: { payload: Listed[] }) => page.payload.map((m) => m.id);

/**
 * The post is answered at the room's commit, before D1 has the message (failInserts keeps it
 * out of D1, and every message after it in the room's order): reads of that conversation merge
 * the room's tail, and a change to a message still in the tail waits for D1, then applies.
 */
describe("changes right after the post", () => {
  it("edits each message in the request after its post, wherever it is then", async () => {
    const s = await setup();
    for (let i = 0; i < 8; i++) {
      const posted = await api(`${s.base}/messages`, {
        token: s.admin.token,
        body: { content: `draft ${i}` },
      });
      // In the room's tail, in D1, or leaving the one for the other while this is read.
      const edited = await api(`${s.base}/messages/${posted.body.id}`, {
        method: "PATCH",
        token: s.admin.token,
        body: { content: `final ${i}` },
      });
      expect(edited.status).toBe(200);
      expect(edited.body).toMatchObject({ id: posted.body.id, content: `final ${i}` });
    }
    const rows = await untilStored(s.conversation.id, 8);
    expect(rows.map((r) => r.content)).toEqual(Array.from({ length: 8 }, (_, i) => `final ${i}`));
  });
});

describe("read your writes while D1 lacks the message", () => {
  async function heldBack() {
    const s = await setup();
    const marker = `held${s.conversation.id}`;
    const heal = await failInserts(marker);
    const post = async (content: string, extra: Record<string, unknown> = {}) => {
      const res = await api(`${s.base}/messages`, {
        token: s.admin.token,
        body: { content, ...extra },
      });
      expect(res.status).toBe(200);
      return res.body as Listed;
    };
    return { ...s, marker, heal, post };
  }

  it("lists, pages and shows messages D1 does not have yet", { timeout: 60_000 }, async () => {
    const s = await heldBack();
    const posted: Listed[] = [];
    for (const n of ["one", "two", "three", "four", "five"]) {
      posted.push(await s.post(`${s.marker} ${n}`));
    }
    // Answered before D1 has any of them: only the room's log holds them.
    expect(await stored(s.conversation.id)).toEqual([]);
    expect(posted.map((m) => m.seq)).toEqual([1, 2, 3, 4, 5]);
    const latest = await api(`${s.base}/messages`, { token: s.admin.token });
    expect(latest.status).toBe(200);
    expect(ids(latest.body)).toEqual(posted.map((m) => m.id));
    expect(latest.body.payload[0].content).toBe(`${s.marker} one`);
    const [one, two, three, four, five] = posted.map((m) => m.id) as number[];
    const before = await api(`${s.base}/messages?before=${four}`, { token: s.admin.token });
    expect(ids(before.body)).toEqual([one, two, three]);
    const after = await api(`${s.base}/messages?after=${two}`, { token: s.admin.token });
    expect(ids(after.body)).toEqual([three, four, five]);
    const shown = await api(s.base, { token: s.admin.token });
    expect(shown.body.messages.map((m: Listed) => m.id)).toEqual([five]);
    expect(shown.body.last_non_activity_message.id).toBe(five);
    // A human's public reply moves the conversation's clocks (first reply) before D1 has it.
    expect(shown.body.first_reply_created_at).not.toBeNull();
    await s.heal();
    // Once D1 has them, the same reads answer the same (D1's rows, no duplicate from the tail).
    await untilStored(s.conversation.id, 5);
    const again = await api(`${s.base}/messages`, { token: s.admin.token });
    expect(ids(again.body)).toEqual(posted.map((m) => m.id));
  });

  it("pages across the boundary between D1's rows and the room's tail", {
    timeout: 60_000,
  }, async () => {
    const s = await heldBack();
    const inD1: Listed[] = [];
    for (const n of ["a", "b", "c"]) {
      inD1.push(await s.post(`stored ${n}`));
    }
    await untilStored(s.conversation.id, 3);
    const inTail: Listed[] = [];
    for (const n of ["d", "e"]) {
      inTail.push(await s.post(`${s.marker} ${n}`));
    }
    expect(await stored(s.conversation.id)).toHaveLength(3);
    const every = [...inD1, ...inTail].map((m) => m.id);
    const latest = await api(`${s.base}/messages`, { token: s.admin.token });
    expect(ids(latest.body)).toEqual(every);
    const firstTail = inTail[0]?.id as number;
    const lastStored = inD1[2]?.id as number;
    const before = await api(`${s.base}/messages?before=${firstTail}`, { token: s.admin.token });
    expect(ids(before.body)).toEqual(inD1.map((m) => m.id));
    const after = await api(`${s.base}/messages?after=${lastStored}`, { token: s.admin.token });
    expect(ids(after.body)).toEqual(inTail.map((m) => m.id));
    const afterFirst = await api(`${s.base}/messages?after=${inD1[0]?.id}`, {
      token: s.admin.token,
    });
    expect(ids(afterFirst.body)).toEqual(every.slice(1));
    await s.heal();
  });

  it("counts an incoming message D1 lacks as unread", { timeout: 60_000 }, async () => {
    const s = await heldBack();
    const shown0 = await api(s.base, { token: s.admin.token });
    const unread0 = shown0.body.unread_count as number;
    await s.post(`${s.marker} from the contact`, { message_type: "incoming" });
    expect(await stored(s.conversation.id)).toEqual([]);
    const shown = await api(s.base, { token: s.admin.token });
    expect(shown.body.unread_count).toBe(unread0 + 1);
    expect(shown.body.waiting_since).not.toBeNull();
    const listed = await api(`${s.base}/messages`, { token: s.admin.token });
    expect(listed.body.payload).toHaveLength(1);
    await s.heal();
    await untilStored(s.conversation.id, 1);
    const healed = await api(s.base, { token: s.admin.token });
    expect(healed.body.unread_count).toBe(unread0 + 1);
  });

  it("edits and deletes a message still in the room's tail once D1 has it", {
    timeout: 60_000,
  }, async () => {
    const s = await heldBack();
    const first = await s.post(`${s.marker} first`);
    const second = await s.post(`${s.marker} second`);
    expect(await stored(s.conversation.id)).toEqual([]);
    // The change waits for D1 to have the message (the room writes its log first).
    const edit = api(`${s.base}/messages/${first.id}`, {
      method: "PATCH",
      token: s.admin.token,
      body: { content: "edited" },
    });
    const remove = api(`${s.base}/messages/${second.id}`, {
      method: "DELETE",
      token: s.admin.token,
    });
    // While D1 refuses it, neither answers (a change read from D1 alone answered 404 at once).
    const early = await Promise.race([
      Promise.all([edit, remove]),
      new Promise<null>((r) => setTimeout(() => r(null), 1_000)),
    ]);
    expect(early).toBeNull();
    await s.heal();
    const [edited, removed] = await Promise.all([edit, remove]);
    expect(edited.status).toBe(200);
    expect(edited.body.content).toBe("edited");
    expect(removed.status).toBe(200);
    expect(removed.body.content).toBe("This message was deleted");
    const rows = await untilStored(s.conversation.id, 2);
    expect(rows.map((r) => [r.id, r.content])).toEqual([
      [first.id, "edited"],
      [second.id, "This message was deleted"],
    ]);
    const listed = await api(`${s.base}/messages`, { token: s.admin.token });
    expect(listed.body.payload.map((m: Listed) => m.content)).toEqual([
      "edited",
      "This message was deleted",
    ]);
  });
});

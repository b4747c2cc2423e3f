import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { addInboxMember, createWorld } from "../support/factories";
import { createConversationIn } from "../support/factories-conversations";
import { api } from "../support/http";
import { openSocket } from "../support/ws";

async function setup() {
  const world = await createWorld();
  await addInboxMember(world.inbox.id, world.agent.id);
  const { conversation } = await createConversationIn(world.account.id, world.inbox.id);
  const room = `/api/v1/accounts/${world.account.id}/conversations/${conversation.displayId}/live`;
  const feed = `/api/v1/accounts/${world.account.id}/live`;
  return { ...world, room, feed };
}

/** What a browser sends for `new WebSocket(url, protocols)`. */
const offering = (...protocols: string[]) => ({ "Sec-WebSocket-Protocol": protocols.join(", ") });

/** An upgrade the server refuses: its status and error body, and no socket. */
async function refused(path: string, headers: Record<string, string>) {
  const res = await SELF.fetch(`http://parley.test${path}`, {
    headers: { Upgrade: "websocket", ...headers },
  });
  expect(res.webSocket).toBeNull();
  return { status: res.status, body: (await res.json()) as { code: string; error: string } };
}

describe("the agent token as a WebSocket subprotocol", () => {
  it("opens the room and the feed, and the 101 names only parley", async () => {
    const s = await setup();
    for (const path of [s.room, s.feed]) {
      const socket = await openSocket(path, offering("parley", `access_token.${s.agent.token}`));
      expect(socket.headers.get("sec-websocket-protocol")).toBe("parley");
      expect(JSON.stringify([...socket.headers])).not.toContain(s.agent.token);
      await socket.next("ready");
      socket.close();
    }
    // The token may come first in the offer; the answer is still parley alone.
    const swapped = await openSocket(s.room, offering(`access_token.${s.agent.token}`, "parley"));
    expect(swapped.headers.get("sec-websocket-protocol")).toBe("parley");
    expect((await swapped.next("ready")).data.role).toBe("agent");
    swapped.close();
  });

  it("refuses a bad token with 401 before upgrading", async () => {
    const s = await setup();
    for (const path of [s.room, s.feed]) {
      const res = await refused(path, offering("parley", "access_token.not-a-token"));
      expect(res.status).toBe(401);
    }
    // An empty token is no token at all.
    expect((await refused(s.room, offering("parley", "access_token."))).status).toBe(401);
  });

  it("refuses a token offered without the parley subprotocol", async () => {
    const s = await setup();
    for (const path of [s.room, s.feed]) {
      const res = await refused(path, offering(`access_token.${s.agent.token}`));
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/parley/);
      expect(JSON.stringify(res.body)).not.toContain(s.agent.token);
    }
  });

  it("keeps the header and the query forms, echoing parley when it is offered", async () => {
    const s = await setup();
    const byHeader = await openSocket(s.room, { api_access_token: s.agent.token });
    expect(byHeader.headers.get("sec-websocket-protocol")).toBeNull();
    await byHeader.next("ready");
    const byQuery = await openSocket(
      `${s.feed}?api_access_token=${s.agent.token}`,
      offering("parley"),
    );
    expect(byQuery.headers.get("sec-websocket-protocol")).toBe("parley");
    await byQuery.next("ready");
    for (const socket of [byHeader, byQuery]) {
      socket.close();
    }
  });

  it("is only an upgrade's credential: a plain request offering it is unauthenticated", async () => {
    const s = await setup();
    const res = await api(`/api/v1/accounts/${s.account.id}/conversations`, {
      headers: offering("parley", `access_token.${s.agent.token}`),
    });
    expect(res.status).toBe(401);
  });
});

import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { roomIdFor } from "../../worker/modules/conversation-room/stub";
import { feedFor, feedIdFor } from "../../worker/modules/live/stubs";
import { revocationWorld } from "../support/revocation";

type Closed = { code: number; frames: string[] };

/** Opens a socket straight on a Durable Object, as the Worker hands it over after its checks. */
async function upgrade(stub: { fetch(r: Request): Promise<Response> }, headers: HeadersInit) {
  const res = await stub.fetch(
    new Request("http://do/live", { headers: { Upgrade: "websocket", ...headers } }),
  );
  const ws = res.webSocket;
  if (!ws) {
    throw new Error(`expected a socket, got ${res.status}`);
  }
  ws.accept();
  const frames: string[] = [];
  ws.addEventListener("message", (e) => {
    frames.push(String(e.data));
  });
  const closed = new Promise<Closed>((resolve) =>
    ws.addEventListener("close", (e) => resolve({ code: e.code, frames })),
  );
  return { ws, frames, closed };
}

const within = <T>(p: Promise<T>, ms = 10_000) =>
  Promise.race([p, new Promise<null>((r) => setTimeout(() => r(null), ms))]);

describe("a socket authenticated before a revocation that arrives after it", {
  timeout: 30_000,
}, () => {
  it("is closed on arrival in its room and its feed; a later ticket is not", async () => {
    const w = await revocationWorld();
    const feed = feedFor(env, w.account.id);
    const roomId = roomIdFor(env, w.account.id, w.conversation.id);
    const holder = { kind: "user" as const, id: w.agent.id };
    const directory = feedIdFor(env, w.account.id).toString();
    const identity = (ticket: number) => ({
      "x-parley-identity": JSON.stringify({
        role: "agent",
        kind: "user",
        id: w.agent.id,
        name: "Agent",
        ticket,
        directory,
      }),
      "x-parley-conversation": JSON.stringify({
        accountId: w.account.id,
        id: w.conversation.id,
        inboxId: w.inbox.id,
      }),
    });
    const listener = (ticket: number) => ({
      "x-parley-identity": JSON.stringify({
        userId: w.agent.id,
        name: "Agent",
        inboxIds: [w.inbox.id],
        ticket,
        directory,
      }),
    });
    // Tracked (and, in the Worker, authenticated), then revoked before the upgrade lands.
    const early = await feed.track(holder, roomId.toString(), w.inbox.id);
    const earlyFeed = await feed.track(holder, null, null);
    await feed.revoke({ holders: [holder], inboxId: null });
    const room = await upgrade(env.ROOMS.get(roomId), identity(early));
    const listening = await upgrade(feed, listener(earlyFeed));
    for (const socket of [room, listening]) {
      const closed = await within(socket.closed);
      expect(closed?.code).toBe(4403);
      expect(closed?.frames.join()).not.toContain('"ready"');
    }
    // Access read again after the revocation: those sockets stay.
    const later = await feed.track(holder, roomId.toString(), w.inbox.id);
    const open = await upgrade(env.ROOMS.get(roomId), identity(later));
    const laterFeed = await upgrade(feed, listener(await feed.track(holder, null, null)));
    for (const socket of [open, laterFeed]) {
      await expect.poll(() => socket.frames.join(), { timeout: 10_000 }).toContain('"ready"');
      expect(socket.ws.readyState).toBe(WebSocket.OPEN);
      socket.ws.close();
    }
  });
});

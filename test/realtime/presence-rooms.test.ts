import { env } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as t from "../../worker/db/schema";
import type { AccountFeed } from "../../worker/realtime/account-feed";
import { addInboxMember, createAgent, db } from "../support/factories";
import { createPublicConversation, createPublicWorld } from "../support/factories-public";
import { api } from "../support/http";
import { type LiveSocket, openSocket } from "../support/ws";

/** An inbox with one agent (auto_offline on, the default) and an admin watching the feed. */
async function world() {
  const w = await createPublicWorld();
  const agent = await createAgent(w.account.id);
  await addInboxMember(w.inbox.id, agent.id);
  const { conversation } = await createPublicConversation(w.base);
  const watcher = await openSocket(`/api/v1/accounts/${w.account.id}/live`, {
    api_access_token: w.admin.token,
  });
  await watcher.next("ready");
  const roomPath = `/api/v1/accounts/${w.account.id}/conversations/${conversation.id}/live`;
  return { ...w, agent, conversation, watcher, roomPath };
}

/** The next presence.update about `userId` (others, such as the watcher's own, are skipped). */
async function presenceOf(watcher: LiveSocket, userId: number, ms = 20_000) {
  for (;;) {
    const f = await watcher.next("presence.update", ms);
    if (String(userId) in f.data.users) {
      return f.data.users[userId];
    }
  }
}

const connectedAt = async (accountId: number, userId: number) =>
  (
    await db()
      .select({ at: t.accountUsers.connectedAt })
      .from(t.accountUsers)
      .where(and(eq(t.accountUsers.accountId, accountId), eq(t.accountUsers.userId, userId)))
      .get()
  )?.at ?? null;

const statusInList = async (w: Awaited<ReturnType<typeof world>>) => {
  const res = await api(`/api/v1/accounts/${w.account.id}/agents`, { token: w.admin.token });
  return res.body.find((a: { id: number }) => a.id === w.agent.id)?.availability_status;
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("presence counts every socket to the account (feed and conversation rooms)", () => {
  it("an agent with only a conversation's socket open is online; offline after the grace once it closes", async () => {
    const w = await world();
    expect(await statusInList(w)).toBe("offline");
    const room = await openSocket(w.roomPath, { api_access_token: w.agent.token });
    expect(await presenceOf(w.watcher, w.agent.id)).toBe("online");
    expect(await statusInList(w)).toBe("online");
    room.close();
    expect(await presenceOf(w.watcher, w.agent.id)).toBe("offline");
    expect(await connectedAt(w.account.id, w.agent.id)).toBeNull();
    w.watcher.close();
  });

  it("closing the feed keeps an agent online while a room socket of theirs is open, and the reverse", async () => {
    const w = await world();
    const feed = await openSocket(`/api/v1/accounts/${w.account.id}/live`, {
      api_access_token: w.agent.token,
    });
    await feed.next("ready");
    expect(await presenceOf(w.watcher, w.agent.id)).toBe("online");
    const room = await openSocket(w.roomPath, { api_access_token: w.agent.token });
    feed.close();
    await feed.closed;
    // Many times the (test-shortened, 300 ms) grace: the departure check has run and found the
    // room's socket. A slow machine only makes this weaker, never red when right.
    await sleep(2_000);
    expect(await statusInList(w)).toBe("online");
    expect(
      w.watcher.all("presence.update").some((f) => f.data.users[w.agent.id] === "offline"),
    ).toBe(false);
    // A feed socket again, then the room's closes: still online.
    const again = await openSocket(`/api/v1/accounts/${w.account.id}/live`, {
      api_access_token: w.agent.token,
    });
    await again.next("ready");
    room.close();
    await room.closed;
    await sleep(2_000);
    expect(await statusInList(w)).toBe("online");
    again.close();
    expect(await presenceOf(w.watcher, w.agent.id)).toBe("offline");
    w.watcher.close();
  });

  it("a room socket tracked but never opened keeps nobody online", async () => {
    const w = await world();
    const feed = env.FEEDS.get(
      env.FEEDS.idFromName(`account:${w.account.id}`),
    ) as unknown as DurableObjectStub<AccountFeed>;
    const someRoom = env.ROOMS.idFromName(`nobody-opens:${w.agent.id}`).toString();
    await feed.track({ kind: "user", id: w.agent.id }, someRoom, w.inbox.id, w.account.id);
    expect(await presenceOf(w.watcher, w.agent.id)).toBe("online");
    // The open check (10 s at the least) finds no socket in that room.
    expect(await presenceOf(w.watcher, w.agent.id, 30_000)).toBe("offline");
    expect(await statusInList(w)).toBe("offline");
    w.watcher.close();
  }, 90_000);

  it("an agent whose access is revoked loses the presence their room socket gave", async () => {
    const w = await world();
    const room = await openSocket(w.roomPath, { api_access_token: w.agent.token });
    expect(await presenceOf(w.watcher, w.agent.id)).toBe("online");
    const res = await api(`/api/v1/accounts/${w.account.id}/inbox_members`, {
      method: "PATCH",
      token: w.admin.token,
      body: { inbox_id: w.inbox.id, user_ids: [] },
    });
    expect(res.status).toBe(200);
    expect((await room.closed).code).toBe(4403);
    expect(await presenceOf(w.watcher, w.agent.id)).toBe("offline");
    w.watcher.close();
  });
});

import { describe, expect, it } from "vitest";
import {
  addInboxMember,
  createAdmin,
  createInbox,
  createPlatformApp,
  permit,
} from "../support/factories";
import { createConversationIn } from "../support/factories-conversations";
import { api } from "../support/http";
import {
  expectRevoked,
  expectSilenced,
  online,
  revocationWorld,
  tryToSend,
} from "../support/revocation";
import { type LiveSocket, openSocket, settle } from "../support/ws";

/** The administrator's room socket: sees every note, so it tells when one was sent. */
async function witnessOf(w: Awaited<ReturnType<typeof revocationWorld>>) {
  const witness = await openSocket(`${w.conversationPath}/live`, {
    api_access_token: w.admin.token,
  });
  await witness.next("ready");
  return witness;
}

const closeAll = (...sockets: LiveSocket[]) => {
  for (const s of sockets) {
    s.close();
  }
};

describe("revoked access ends the sockets that rested on it", { timeout: 30_000 }, () => {
  it("closes an agent's sockets of an inbox they are removed from, and only those", async () => {
    const w = await revocationWorld();
    const witness = await witnessOf(w);
    // The agent is in a second inbox too: that room stays theirs.
    const otherInbox = await createInbox(w.account.id);
    await addInboxMember(otherInbox.id, w.agent.id);
    const elsewhere = await createConversationIn(w.account.id, otherInbox.id);
    const elsewherePath = `${w.accountPath}/conversations/${elsewhere.conversation.displayId}`;
    const kept = await openSocket(`${elsewherePath}/live`, { api_access_token: w.agent.token });
    await kept.next("ready");
    const { room, feed } = await online(w, w.agent.token);

    const res = await api(`${w.accountPath}/inbox_members`, {
      method: "DELETE",
      token: w.admin.token,
      body: { inbox_id: w.inbox.id, user_ids: [w.agent.id] },
    });
    expect(res.status).toBe(200);
    const sent = tryToSend(room);
    await expectRevoked(room);
    await expectRevoked(feed);
    await expectSilenced(w, witness, [room, feed], [sent]);
    kept.send({ type: "message.create", echo_id: "kept-room", content: "still mine" });
    expect((await kept.next("ack", 10_000)).data.echo_id).toBe("kept-room");
    closeAll(witness, kept);
  });

  it("closes the sockets of an agent the inbox members update drops", async () => {
    const w = await revocationWorld();
    const witness = await witnessOf(w);
    const { room, feed } = await online(w, w.agent.token);
    const res = await api(`${w.accountPath}/inbox_members`, {
      method: "PATCH",
      token: w.admin.token,
      body: { inbox_id: w.inbox.id, user_ids: [w.admin.id] },
    });
    expect(res.status).toBe(200);
    const sent = tryToSend(room);
    await expectRevoked(room);
    await expectRevoked(feed);
    await expectSilenced(w, witness, [room, feed], [sent]);
    closeAll(witness);
  });

  it("closes the sockets of a user removed from the account (platform and account API)", async () => {
    const w = await revocationWorld();
    const witness = await witnessOf(w);
    const app = await createPlatformApp();
    await permit(app.id, "Account", w.account.id);
    await permit(app.id, "User", w.agent.id);
    const first = await online(w, w.agent.token);
    const removed = await api(`/platform/api/v1/accounts/${w.account.id}/account_users`, {
      method: "DELETE",
      token: app.token,
      body: { user_id: w.agent.id },
    });
    expect(removed.status).toBe(200);
    const sent = tryToSend(first.room);
    await expectRevoked(first.room);
    await expectRevoked(first.feed);
    await expectSilenced(w, witness, [first.room, first.feed], [sent]);

    // Back in, then removed through the account API.
    await api(`/platform/api/v1/accounts/${w.account.id}/account_users`, {
      token: app.token,
      body: { user_id: w.agent.id, role: "agent" },
    });
    await addInboxMember(w.inbox.id, w.agent.id);
    const second = await online(w, w.agent.token);
    const deleted = await api(`${w.accountPath}/agents/${w.agent.id}`, {
      method: "DELETE",
      token: w.admin.token,
    });
    expect(deleted.status).toBe(200);
    await expectRevoked(second.room);
    await expectRevoked(second.feed);
    await expectSilenced(w, witness, [second.room, second.feed], []);
    closeAll(witness);
  });

  it("closes an administrator's sockets when the role becomes agent", async () => {
    const w = await revocationWorld();
    // Not a member of the inbox: only the administrator role let them in.
    const demoted = await createAdmin(w.account.id);
    const witness = await witnessOf(w);
    const { room, feed } = await online(w, demoted.token);
    const res = await api(`${w.accountPath}/agents/${demoted.id}`, {
      method: "PATCH",
      token: w.admin.token,
      body: { role: "agent" },
    });
    expect(res.status).toBe(200);
    const sent = tryToSend(room);
    await expectRevoked(room);
    await expectRevoked(feed);
    await expectSilenced(w, witness, [room, feed], [sent]);
    // As an agent outside the inbox, the room is no longer theirs.
    await expect(
      openSocket(`${w.conversationPath}/live`, { api_access_token: demoted.token }),
    ).rejects.toThrow(/404/);
    closeAll(witness);
  });

  it("closes every socket of a deleted inbox, and every socket of a suspended account", async () => {
    const w = await revocationWorld();
    const admin = await online(w, w.admin.token);
    const agent = await online(w, w.agent.token);
    const deleted = await api(`${w.accountPath}/inboxes/${w.inbox.id}`, {
      method: "DELETE",
      token: w.admin.token,
    });
    expect(deleted.status).toBe(200);
    await expectRevoked(admin.room);
    await expectRevoked(agent.room);
    // The feeds rest on the account, not on the inbox.
    await settle();
    expect(admin.feed.ws.readyState).toBe(WebSocket.OPEN);

    const app = await createPlatformApp();
    await permit(app.id, "Account", w.account.id);
    const suspended = await api(`/platform/api/v1/accounts/${w.account.id}`, {
      method: "PATCH",
      token: app.token,
      body: { status: "suspended" },
    });
    expect(suspended.status).toBe(200);
    await expectRevoked(admin.feed);
    await expectRevoked(agent.feed);
  });

  it("closes a bot's sockets of an inbox it is detached from", async () => {
    const w = await revocationWorld();
    const witness = await witnessOf(w);
    const bot = await openSocket(`${w.conversationPath}/live`, { api_access_token: w.bot.token });
    await bot.next("ready");
    const res = await api(`${w.accountPath}/inboxes/${w.inbox.id}/set_agent_bot`, {
      token: w.admin.token,
      body: { agent_bot: null },
    });
    expect(res.status).toBe(204);
    const sent = tryToSend(bot);
    await expectRevoked(bot);
    await expectSilenced(w, witness, [bot], [sent]);
    closeAll(witness);
  });

  it("closes every socket of a user the platform deletes", async () => {
    const w = await revocationWorld();
    const witness = await witnessOf(w);
    const app = await createPlatformApp();
    await permit(app.id, "User", w.agent.id);
    const { room, feed } = await online(w, w.agent.token);
    const res = await api(`/platform/api/v1/users/${w.agent.id}`, {
      method: "DELETE",
      token: app.token,
    });
    expect(res.status).toBe(200);
    await expectRevoked(room);
    await expectRevoked(feed);
    await expectSilenced(w, witness, [room, feed], []);
    closeAll(witness);
  });
});

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createConversationIn } from "../support/factories-conversations";
import { api } from "../support/http";
import { recordMail } from "../support/mail";
import {
  expectRevoked,
  expectSilenced,
  online,
  revocationWorld,
  tryToSend,
} from "../support/revocation";
import { apiSettled } from "../support/settled";
import { openSocket } from "../support/ws";

let mail: ReturnType<typeof recordMail>;
beforeEach(() => {
  mail = recordMail();
});
afterEach(() => mail.stop());

describe("a revoked token ends the sockets opened with it", { timeout: 30_000 }, () => {
  it("closes the room and feed sockets when the user resets their access token", async () => {
    const w = await revocationWorld();
    const witness = await openSocket(`${w.conversationPath}/live`, {
      api_access_token: w.admin.token,
    });
    await witness.next("ready");
    const { room, feed } = await online(w, w.agent.token);
    const reset = await api("/api/v1/profile/reset_access_token", {
      method: "POST",
      token: w.agent.token,
    });
    expect(reset.status).toBe(200);
    const sent = tryToSend(room);
    await expectRevoked(room);
    await expectRevoked(feed);
    await expectSilenced(w, witness, [room, feed], [sent]);
    expect((await api(`${w.accountPath}/conversations`, { token: w.agent.token })).status).toBe(
      401,
    );
    // The new token opens sockets again: nothing of the revocation sticks to the user.
    const fresh = await online(w, reset.body.access_token);
    fresh.room.send({ type: "message.create", echo_id: "after-new-token", content: "back" });
    expect((await fresh.room.next("ack", 10_000)).data.echo_id).toBe("after-new-token");
    for (const s of [witness, fresh.room, fresh.feed]) {
      s.close();
    }
  });

  it("rotates the token and closes the sockets when the password is reset by mail", async () => {
    const w = await revocationWorld();
    const witness = await openSocket(`${w.conversationPath}/live`, {
      api_access_token: w.admin.token,
    });
    await witness.next("ready");
    const { room, feed } = await online(w, w.agent.token);
    // The mail leaves after the answer (waitUntil): apiSettled waits for it.
    await apiSettled("/auth/password", { body: { email: w.agent.email } });
    const link = mail.linkTo(w.agent.email);
    const token = new URL(`http://x${link}`).searchParams.get("reset_password_token") ?? "";
    const done = await api("/app/auth/password/edit", {
      method: "POST",
      raw: new URLSearchParams({
        reset_password_token: token,
        password: "correct horse battery",
        password_confirmation: "correct horse battery",
      }).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(done.status).toBe(200);
    const sent = tryToSend(room);
    await expectRevoked(room);
    await expectRevoked(feed);
    await expectSilenced(w, witness, [room, feed], [sent]);
    expect((await api(`${w.accountPath}/conversations`, { token: w.agent.token })).status).toBe(
      401,
    );
    witness.close();
  });

  it("closes a bot's sockets when its token is reset, and when it is deleted", async () => {
    const w = await revocationWorld();
    const witness = await openSocket(`${w.conversationPath}/live`, {
      api_access_token: w.admin.token,
    });
    await witness.next("ready");
    const botPath = `${w.accountPath}/agent_bots/${w.bot.id}`;
    const first = await openSocket(`${w.conversationPath}/live`, { api_access_token: w.bot.token });
    await first.next("ready");
    const reset = await api(`${botPath}/reset_access_token`, {
      method: "POST",
      token: w.admin.token,
    });
    expect(reset.status).toBe(200);
    const sent = tryToSend(first);
    await expectRevoked(first);
    await expectSilenced(w, witness, [first], [sent]);

    const second = await openSocket(`${w.conversationPath}/live`, {
      api_access_token: reset.body.access_token,
    });
    await second.next("ready");
    expect((await api(botPath, { method: "DELETE", token: w.admin.token })).status).toBe(200);
    await expectRevoked(second);
    await expectSilenced(w, witness, [second], []);
    witness.close();
  });

  it("leaves other users' sockets alone", async () => {
    const w = await revocationWorld();
    const other = await createConversationIn(w.account.id, w.inbox.id);
    const admin = await online(w, w.admin.token);
    const agent = await online(w, w.agent.token);
    await api("/api/v1/profile/reset_access_token", { method: "POST", token: w.agent.token });
    await expectRevoked(agent.room);
    await expectRevoked(agent.feed);
    // The administrator's feed still hears the account, their room still speaks.
    await api(`${w.accountPath}/conversations/${other.conversation.displayId}/toggle_status`, {
      token: w.admin.token,
      body: { status: "resolved" },
    });
    expect((await admin.feed.next("conversation.status_changed", 10_000)).data.id).toBe(
      other.conversation.displayId,
    );
    admin.room.send({ type: "message.create", echo_id: "still-here", content: "still here" });
    expect((await admin.room.next("ack", 10_000)).data.echo_id).toBe("still-here");
    admin.room.close();
    admin.feed.close();
  });
});

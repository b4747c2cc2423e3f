import { expect } from "vitest";
import { addInboxMember, createWorld, unique } from "./factories";
import { createConversationIn } from "./factories-conversations";
import { api } from "./http";
import { type LiveSocket, openSocket, settle } from "./ws";

/** A world with a conversation whose inbox the agent is in. */
export async function revocationWorld() {
  const world = await createWorld();
  await addInboxMember(world.inbox.id, world.agent.id);
  const { conversation } = await createConversationIn(world.account.id, world.inbox.id);
  const accountPath = `/api/v1/accounts/${world.account.id}`;
  const conversationPath = `${accountPath}/conversations/${conversation.displayId}`;
  return { ...world, conversation, accountPath, conversationPath };
}

type World = Awaited<ReturnType<typeof revocationWorld>>;

/** A conversation room socket and the account feed socket of one token, both ready. */
export async function online(w: World, token: string, conversationPath = w.conversationPath) {
  const room = await openSocket(`${conversationPath}/live`, { api_access_token: token });
  await room.next("ready");
  const feed = await openSocket(`${w.accountPath}/live`, { api_access_token: token });
  await feed.next("ready");
  return { room, feed };
}

/**
 * What a socket sends right after its access was taken away, before it learns it: a message.
 * Its send may already fail on the client (the close is under way): that is fine too.
 */
export function tryToSend(socket: LiveSocket): string {
  const echoId = unique("after-revoke");
  try {
    socket.send({ type: "message.create", echo_id: echoId, content: echoId });
  } catch {
    // closed already
  }
  return echoId;
}

/** Waits for the server's close (generously: a loaded machine) and checks it was a revocation. */
export async function expectRevoked(socket: LiveSocket) {
  const closed = await Promise.race([
    socket.closed,
    new Promise<null>((resolve) => setTimeout(() => resolve(null), 10_000)),
  ]);
  expect(closed, "the socket was not closed").not.toBeNull();
  expect(closed?.code).toBe(4403);
}

/**
 * After a revocation: an administrator posts a private note (seen on `witness`, an open socket
 * of the same room), and none of `revoked` got it, nor an ack for what they tried to send; that
 * message is not stored either.
 */
export async function expectSilenced(
  w: World,
  witness: LiveSocket,
  revoked: LiveSocket[],
  sentAfter: string[],
  conversationPath = w.conversationPath,
) {
  const note = unique("private-after-revoke");
  const res = await api(`${conversationPath}/messages`, {
    token: w.admin.token,
    body: { content: note, private: true },
  });
  expect(res.status).toBe(200);
  expect((await witness.next("message.created", 10_000)).data.content).toBe(note);
  await settle();
  for (const socket of revoked) {
    expect(JSON.stringify(socket.frames)).not.toContain(note);
    expect(socket.all("ack")).toHaveLength(0);
  }
  const stored = await api(`${conversationPath}/messages`, { token: w.admin.token });
  const contents = JSON.stringify(stored.body);
  for (const echoId of sentAfter) {
    expect(contents).not.toContain(echoId);
  }
}

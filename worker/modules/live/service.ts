import type { Db } from "../../db/client";
import { ApiError } from "../../lib/errors";
import { offeredProtocols, SOCKET_PROTOCOL, type SocketIdentity } from "../../realtime/protocol";
import {
  ROOM_CONVERSATION_HEADER,
  type RoomConversation,
  roomConversation,
} from "../../realtime/room-typing";
import { upgraded } from "../../realtime/upgrade";
import type { AccountRole, Actor } from "../access-tokens/service";
import { listMemberInboxes } from "../inboxes/queries";
import { displayNameOf } from "../users/presenter";

/** Only WebSocket upgrades reach the rooms. */
export function assertUpgrade(request: Request): void {
  if (request.headers.get("upgrade")?.toLowerCase() !== "websocket") {
    throw new ApiError("bad_request", "Expected a WebSocket upgrade (Upgrade: websocket)");
  }
}

/** The agent side of a room: a user or an agent bot (`origin`: where the socket was opened). */
export function agentIdentity(actor: Actor, origin?: string): SocketIdentity {
  if (actor.kind === "user") {
    const { user } = actor;
    return { role: "agent", kind: "user", id: user.id, name: displayNameOf(user), origin };
  }
  if (actor.kind === "bot") {
    return { role: "agent", kind: "agent_bot", id: actor.bot.id, name: actor.bot.name, origin };
  }
  throw new ApiError("forbidden");
}

/** The visitor side of a room, in one session (`source`: its contact_inbox source_id). */
export const contactIdentity = (
  contact: { id: number; name: string },
  source: string,
  origin?: string,
): SocketIdentity => ({
  role: "contact",
  kind: "contact",
  id: contact.id,
  name: contact.name,
  source,
  origin,
});

/** Who listens to the account feed, and the inboxes it may hear of (null: all, administrators). */
export async function feedListener(db: Db, accountId: number, actor: Actor, role: AccountRole) {
  const identity = agentIdentity(actor);
  const inboxIds =
    role === "administrator"
      ? null
      : (await listMemberInboxes(db, accountId, identity.id)).map((r) => r.inbox.id);
  const presence = identity.kind === "user" ? { accountId } : undefined;
  return { userId: identity.id, name: identity.name, inboxIds, presence };
}

const CREDENTIAL_HEADERS = ["api_access_token", "api-access-token", "sec-websocket-protocol"];

/**
 * A Durable Object's 101, answered to the client afresh: compression declined on this hop too
 * (the runtime negotiates each hop by itself), and a client that offered the "parley"
 * subprotocol gets it named, and only it: a browser fails a socket whose offer goes unanswered,
 * and the token it may have offered beside it is never echoed.
 */
export function answerUpgrade(request: Request, response: Response): Response {
  if (response.status !== 101 || !response.webSocket) {
    return response;
  }
  const named = offeredProtocols(request.headers).includes(SOCKET_PROTOCOL);
  return upgraded(response.webSocket, named ? { "sec-websocket-protocol": SOCKET_PROTOCOL } : {});
}

/**
 * Hands the upgrade to a Durable Object, with who the Worker found the caller to be and, for a
 * conversation room, which conversation it serves.
 */
export function forward(
  request: Request,
  identity: unknown,
  opts: { after?: number; conversation?: RoomConversation; batch?: boolean } = {},
): Request {
  const { after, conversation, batch } = opts;
  const url = new URL(request.url);
  const query = new URLSearchParams();
  if (after !== undefined) {
    query.set("after", String(after));
  }
  if (batch) {
    query.set("batch", "1");
  }
  url.search = query.toString();
  const headers = new Headers(request.headers);
  // The room learns who is calling from the identity; credentials stay in the Worker.
  for (const name of CREDENTIAL_HEADERS) {
    headers.delete(name);
  }
  headers.set("x-parley-identity", JSON.stringify(identity));
  if (conversation) {
    // Only the fields the room keeps, never the whole row.
    headers.set(ROOM_CONVERSATION_HEADER, JSON.stringify(roomConversation(conversation)));
  }
  return new Request(url, { method: "GET", headers });
}

import type { z } from "zod";
import type { ConversationRow } from "../../db/schema";
import type { Bindings } from "../../env";
import { createDeps, type Deps } from "../../events/deps";
import { ApiError } from "../../lib/errors";
import { enforceLimit } from "../../lib/limits";
import { createLogger } from "../../lib/logger";
import { TtlCache } from "../../lib/ttl-cache";
import { invalidInput } from "../../lib/zod-details";
import {
  type ActionFrame,
  type ActionReply,
  errorFrame,
  type SocketIdentity,
} from "../../realtime/protocol";
import type { Holder } from "../../realtime/revocation";
import type { RoomConversation } from "../../realtime/room-typing";
import { performerOf } from "../access-tokens/service";
import type { SocketActions, SocketRoom } from "../conversation-room/types";
import { markSeen } from "../conversations/service.actions";
import { markSeenByContact, sendAsContact } from "../conversations/service.public";
import {
  createInputOf,
  MessageCreateJsonSchema,
  PublicMessageCreateSchema,
} from "../messages/schema.requests";
import { createMessage, type MessageScope } from "../messages/service";
import { type SocketCaller, socketCaller } from "./caller";
import { senderGuard } from "./sender-guard";

/**
 * Who is on a socket, as the account API's auth would find them. A message's access is
 * re-checked in its own write (senderGuard), so for messages this only carries who they are
 * (name, avatar, the visitor's rate-limit key) and may be a minute old; a refused write drops
 * the entry (null: read again). Read receipts are not guarded: they resolve the caller afresh.
 */
const callers = new TtlCache<Promise<SocketCaller> | null>(60_000, 2_000);

/**
 * A message or read receipt sent over a room's socket: the same services, validation,
 * permissions, rate limits and idempotency (echo_id, per sender) as the HTTP API. Answers an
 * ack or the one error body as a frame; nothing is stored when it is an error.
 */
export async function socketAction(
  room: SocketRoom,
  env: Bindings,
  ref: RoomConversation,
  who: SocketIdentity,
  action: ActionFrame,
): Promise<ActionReply> {
  const echoId = action.type === "message.create" ? action.echo_id : undefined;
  const log = createLogger({ source: "socket", conversation_id: ref.id });
  const key = callerKey(ref, who.kind, who.id, who.source);
  try {
    const deps = createDeps(env, { origin: who.origin ?? "", log });
    const caller = await (action.type === "read"
      ? socketCaller(deps, ref, who)
      : callerOf(deps, ref, who, key));
    const scope: MessageScope = {
      deps: { ...deps, performedBy: performerOf(caller.actor) },
      account: caller.account,
      actor: caller.actor,
      role: caller.role,
      origin: who.origin ?? "",
      room,
      guard: senderGuard(deps.db, caller, ref),
    };
    const reply = await perform(scope, room, caller, action);
    await scope.deps.events.flush();
    return reply;
  } catch (err) {
    if (err instanceof ApiError && err.code === "not_found") {
      // The write's own check refused what the caches said: nothing cached is trusted again.
      callers.set(key, null);
      room.forgetConversation();
    }
    if (!(err instanceof ApiError)) {
      log.error("socket action failed", { error: err, action: action.type });
    }
    return errorFrame(err instanceof ApiError ? err : new ApiError("internal_error"), echoId);
  }
}

const callerKey = (ref: RoomConversation, kind: string, id: number, source = "") =>
  `${ref.accountId}:${ref.id}:${kind}:${id}:${source}`;

/** Revoked access (realtime/revocation.ts): the room's cached callers are read again. */
export function forgetSocketCallers(ref: RoomConversation, holders: Holder[] | null): void {
  if (holders === null) {
    callers.clear();
    return;
  }
  for (const h of holders) {
    callers.set(callerKey(ref, h.kind, h.id), null);
  }
}

function callerOf(deps: Deps, ref: RoomConversation, who: SocketIdentity, key: string) {
  const known = callers.get(key);
  if (known) {
    return known;
  }
  // One lookup serves every frame that arrives while it is under way (a burst after connect).
  const caller = socketCaller(deps, ref, who);
  callers.set(key, caller);
  caller.catch(() => callers.set(key, null));
  return caller;
}

async function perform(
  scope: MessageScope,
  room: SocketRoom,
  caller: SocketCaller,
  action: ActionFrame,
): Promise<ActionReply> {
  if (action.type === "read") {
    // Unguarded writes read the row (and check access by it) every time.
    const current = await caller.conversation(scope.deps);
    await (caller.contactLimitKey === null
      ? markSeen(scope, current, scope.deps.now())
      : markSeenByContact(scope, current));
    return null;
  }
  const conversation = await room.conversation(() => caller.conversation(scope.deps));
  const { type: _type, ...body } = action;
  const result =
    caller.contactLimitKey === null
      ? await createMessage(
          scope,
          conversation,
          createInputOf(parse(MessageCreateJsonSchema, body)),
        )
      : await sendFromContact(scope, conversation, caller.contactLimitKey, body);
  const { id, seq } = result.message;
  return {
    event: "ack",
    data: { echo_id: action.echo_id, id, seq, duplicate: result.duplicate },
  };
}

/** The public API's limits count socket messages as they count POSTs. */
async function sendFromContact(
  scope: MessageScope,
  conversation: ConversationRow,
  limitKey: string,
  body: unknown,
) {
  const { env } = scope.deps;
  await enforceLimit(env, "PUBLIC_CONTACT_LIMITER", limitKey, "for this contact");
  await enforceLimit(env, "PUBLIC_MESSAGE_LIMITER", limitKey, "creating messages for this contact");
  const input = parse(PublicMessageCreateSchema, body);
  return sendAsContact(scope, conversation, { content: input.content, echoId: input.echo_id });
}

/** The HTTP API's 422 for a frame whose fields the route's schema refuses. */
function parse<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const result = schema.safeParse(body);
  if (!result.success) {
    throw invalidInput(result.error);
  }
  return result.data;
}

/** What a conversation's room does with its sockets' frames (given to it in worker/index.ts). */
export const socketActions: SocketActions = { act: socketAction, forget: forgetSocketCallers };

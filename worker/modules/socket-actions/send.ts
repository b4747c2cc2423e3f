import type { z } from "zod";
import type { ConversationRow } from "../../db/schema";
import type { Bindings } from "../../env";
import { createDeps } from "../../events/deps";
import { enforceLimit } from "../../lib/limits";
import { createLogger } from "../../lib/logger";
import { TtlCache } from "../../lib/ttl-cache";
import { invalidInput } from "../../lib/zod-details";
import type { MessageFrame, SocketIdentity } from "../../realtime/protocol";
import type { Holder } from "../../realtime/revocation";
import type { RoomConversation } from "../../realtime/room-typing";
import { performerOf } from "../access-tokens/service";
import type { AppendRequest } from "../conversation-room/types";
import {
  asContactMessage,
  createInputOf,
  MessageCreateJsonSchema,
  PublicMessageCreateSchema,
} from "../messages/schema.requests";
import { type MessageScope, prepareMessage } from "../messages/service";
import { resolveSender, type SocketSender } from "./sender";

/** How long a room keeps a socket's sender before reading them again from D1. */
const KEPT_MS = 60_000;

const keyOf = (kind: string, id: number, source = "") => `${kind}:${id}:${source}`;

/**
 * A room's socket senders: who they are, resolved once and kept with the room for a minute at
 * most, and whether their access still holds when their message commits (asked without reading
 * D1). Every change of access made through the API reaches the room as a revocation (closing the
 * holder's sockets) before its answer leaves, and every conversation change drops the room's
 * row: a message is refused when a revocation of its sender (or of everyone) reached the room
 * after its frame arrived, or when the row the room holds is no longer in the socket's inbox
 * (or, for a visitor, no longer theirs). The minute bounds what a change made straight in D1,
 * behind the API, can miss; a refused write forgets the sender (`forget`).
 */
export class SocketSenders {
  private readonly kept = new TtlCache<Promise<SocketSender>>(KEPT_MS, 1_000);
  /** Revocations that reached the room, counted; per holder ("*": everyone) the last one's. */
  private count = 0;
  private readonly at = new Map<string, number>();

  /** The socket's sender as kept; one lookup serves every frame that arrives meanwhile. */
  of(env: Bindings, ref: RoomConversation, who: SocketIdentity): Promise<SocketSender> {
    const key = keyOf(who.kind, who.id, who.source);
    const known = this.kept.get(key);
    if (known) {
      return known;
    }
    const sender = resolveSender(env, ref, who);
    this.kept.set(key, sender);
    sender.catch(() => {
      if (this.kept.get(key) === sender) {
        this.kept.delete(key);
      }
    });
    return sender;
  }

  /** A write refused what was kept: this sender is read again next time. */
  forget(who: SocketIdentity): void {
    this.kept.delete(keyOf(who.kind, who.id, who.source));
  }

  /** Access was revoked (null: everyone's): their kept senders go, their pending writes fail. */
  revoked(holders: Holder[] | null): void {
    this.count += 1;
    for (const h of holders ?? [null]) {
      this.at.set(h ? `${h.kind}:${h.id}` : "*", this.count);
      if (h) {
        this.kept.delete(keyOf(h.kind, h.id));
      }
    }
    if (holders === null) {
      this.kept.clear();
    }
  }

  /** Taken as the frame arrives; asked when its message commits, with the row the room holds. */
  check(
    who: SocketIdentity,
    ref: RoomConversation,
  ): (now: ConversationRow | undefined, sender: SocketSender) => boolean {
    const since = this.count;
    const tag = who.kind === "contact" ? null : `${who.kind}:${who.id}`;
    return (now, sender) => {
      const revoked = Math.max(this.at.get("*") ?? 0, tag ? (this.at.get(tag) ?? 0) : 0);
      // A visitor's contact as their session names it now (a merge moves it), not as they opened.
      const contact = sender.actor.kind === "contact" ? sender.actor.contact.id : null;
      return (
        revoked <= since &&
        (!now ||
          (now.inboxId === ref.inboxId &&
            now.accountId === ref.accountId &&
            (contact === null || now.contactId === contact)))
      );
    };
  }
}

/**
 * A frame's unit of work: the sender as the HTTP API would see them (the same scope: account,
 * actor, role, who performed it), with deps of its own, so each frame's events are flushed
 * with it alone.
 */
export function senderScope(
  env: Bindings,
  ref: RoomConversation,
  who: SocketIdentity,
  sender: SocketSender,
): MessageScope {
  const log = createLogger({ source: "socket", conversation_id: ref.id });
  const deps = createDeps(env, { origin: who.origin ?? "", log });
  return {
    deps: { ...deps, performedBy: performerOf(sender.actor) },
    account: sender.account,
    actor: sender.actor,
    role: sender.role,
    origin: who.origin ?? "",
  };
}

/**
 * A `message.create` frame as `POST …/messages` takes it: the same validation, permissions and
 * rate limits per sender (the account API's for agents and bots, the public API's for visitors),
 * and the echo_id as its idempotency key. Answers what the room appends (room.ts).
 */
export async function messageRequest(
  scope: MessageScope,
  sender: SocketSender,
  conversation: ConversationRow,
  frame: MessageFrame,
): Promise<AppendRequest> {
  const { type: _type, ...body } = frame;
  if (sender.contactLimitKey === null) {
    return prepareMessage(scope, conversation, createInputOf(parse(MessageCreateJsonSchema, body)));
  }
  // The public API's limits count socket messages as they count POSTs, both at once: the
  // message waits for one answer instead of two in a row, and the room's later messages, whose
  // places are taken behind it, wait with it. Locally each count is a storage commit in
  // wrangler's simulated limiter (the 200-room bench's visitors waited 0.9 s on the two, load
  // 5-8). A message the contact limit refuses is then counted by the message limit as well:
  // no answer changes where both count in the clock's one-minute window (as locally), since the
  // contact limit refuses the rest of that window anyway. Both refusing, the contact limit's
  // error is given, as when it was asked first.
  const { env } = scope.deps;
  const key = sender.contactLimitKey;
  const counted = await Promise.allSettled([
    enforceLimit(env, "PUBLIC_CONTACT_LIMITER", key, "for this contact"),
    enforceLimit(env, "PUBLIC_MESSAGE_LIMITER", key, "creating messages for this contact"),
  ]);
  for (const c of counted) {
    if (c.status === "rejected") {
      throw c.reason;
    }
  }
  const input = parse(PublicMessageCreateSchema, body);
  return prepareMessage(
    scope,
    conversation,
    asContactMessage({ content: input.content, echoId: input.echo_id }),
  );
}

/** The HTTP API's 422 for a frame whose fields the route's schema refuses. */
function parse<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const result = schema.safeParse(body);
  if (!result.success) {
    throw invalidInput(result.error);
  }
  return result.data;
}

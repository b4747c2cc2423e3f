import type { z } from "zod";
import type { ConversationRow } from "../../db/schema";
import { enforceLimit } from "../../lib/limits";
import { invalidInput } from "../../lib/zod-details";
import type { MessageFrame } from "../../realtime/protocol";
import type { AppendRequest } from "../conversation-room/types";
import { asContactMessage } from "../conversations/service.public";
import {
  createInputOf,
  MessageCreateJsonSchema,
  PublicMessageCreateSchema,
} from "../messages/schema.requests";
import { type MessageScope, prepareMessage } from "../messages/service";
import type { SocketSender } from "./sender";

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
  // The public API's limits count socket messages as they count POSTs.
  const { env } = scope.deps;
  const key = sender.contactLimitKey;
  await enforceLimit(env, "PUBLIC_CONTACT_LIMITER", key, "for this contact");
  await enforceLimit(env, "PUBLIC_MESSAGE_LIMITER", key, "creating messages for this contact");
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

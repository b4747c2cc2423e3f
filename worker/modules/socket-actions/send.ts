import type { z } from "zod";
import type { ConversationRow } from "../../db/schema";
import type { Bindings } from "../../env";
import { enforceLimit } from "../../lib/limits";
import { invalidInput } from "../../lib/zod-details";
import type { ActionReply, MessageFrame, SocketIdentity } from "../../realtime/protocol";
import type { RoomConversation } from "../../realtime/room-typing";
import type { SocketRoom } from "../conversation-room/types";
import { sendAsContact } from "../conversations/service.public";
import {
  createInputOf,
  MessageCreateJsonSchema,
  PublicMessageCreateSchema,
} from "../messages/schema.requests";
import { createMessage, type MessageScope } from "../messages/service";
import { refused, senderScope } from "./scope";

/**
 * A `message.create` frame: what `POST …/messages` does (the same validation, permissions, rate
 * limits and echo_id idempotency per sender), through the room itself. Answers an ack.
 */
export async function sendMessage(
  room: SocketRoom,
  env: Bindings,
  ref: RoomConversation,
  who: SocketIdentity,
  frame: MessageFrame,
): Promise<ActionReply> {
  try {
    const { scope, caller } = await senderScope(env, room, ref, who, false);
    const conversation = await room.conversation(() => caller.conversation(scope.deps));
    const { type: _type, ...body } = frame;
    const result =
      caller.contactLimitKey === null
        ? await createMessage(
            scope,
            conversation,
            createInputOf(parse(MessageCreateJsonSchema, body)),
          )
        : await sendFromContact(scope, conversation, caller.contactLimitKey, body);
    await scope.deps.events.flush();
    const { id, seq } = result.message;
    return {
      event: "ack",
      data: { echo_id: frame.echo_id, id, seq, duplicate: result.duplicate },
    };
  } catch (err) {
    return refused(err, room, ref, who, frame.echo_id);
  }
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

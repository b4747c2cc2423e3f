import type { ConversationRow, MessageRow } from "../../db/schema";
import { recorderOf } from "../../events/commit";
import { ApiError } from "../../lib/errors";
import { pickDefined } from "../../lib/patch";
import { roomFor } from "../conversation-room/stub";
import type { ConversationScope } from "../conversations/access";
import { deleteStored } from "../files/storage";
import { findInbox } from "../inboxes/queries";
import { canChange, isDeleted } from "./policy";
import { attachmentKeysOf, deleteAttachmentsOf, findMessage, type NewMessage } from "./queries";
import type { MessageUpdate } from "./schema.requests";
import { type MessageScope, viewFor } from "./service";
import { readTail } from "./tail";
import { MESSAGE_TYPE_CODES } from "./types";

/** Chatwoot replaces a deleted message's content with this text. */
export const DELETED_CONTENT = "This message was deleted";

/**
 * D1's row, else the room's tail's (a message just posted, answered before D1 had it; the room's
 * update waits for D1 to have it, then changes D1's row), else D1's again: one that left the tail
 * between the first read and the tail's is in D1 by then (messages/tail.ts).
 */
async function loadMessage(scope: ConversationScope, conversation: ConversationRow, id: number) {
  const { db } = scope.deps;
  const message =
    (await findMessage(db, conversation.id, id)) ??
    (await readTail(scope, conversation)).find((e) => e.row.id === id)?.row ??
    (await findMessage(db, conversation.id, id));
  if (!message) {
    throw new ApiError("not_found");
  }
  return message;
}

async function write(
  scope: MessageScope,
  conversation: ConversationRow,
  message: MessageRow,
  values: Partial<NewMessage>,
): Promise<MessageRow> {
  const { deps } = scope;
  const room = roomFor(deps.env, scope.account.id, conversation.id);
  const view = await viewFor(scope, conversation, message);
  // Chatwoot parity: activity messages are not webhook events, on update either.
  const record =
    message.messageType === MESSAGE_TYPE_CODES.activity
      ? null
      : {
          ...recorderOf(deps),
          accountId: scope.account.id,
          inboxId: conversation.inboxId,
          isPrivate: message.private,
        };
  const written = await room.updateMessage(
    conversation.id,
    message.id,
    { ...values, updatedAt: deps.now() },
    view,
    record,
  );
  if (!written) {
    throw new ApiError("not_found");
  }
  // The room committed the message.updated row; this unit of work relays it.
  deps.events.committed([], written.eventIds);
  return written.message;
}

/**
 * Chatwoot parity: delivery status may be reported only for API inboxes (403 elsewhere); content
 * edits are for the sender or an administrator, on messages that are not deleted.
 */
export async function updateMessage(
  scope: MessageScope,
  conversation: ConversationRow,
  id: number,
  input: MessageUpdate,
): Promise<MessageRow> {
  const message = await loadMessage(scope, conversation, id);
  if (input.status !== undefined || input.external_error !== undefined) {
    const inbox = await findInbox(scope.deps.db, scope.account.id, conversation.inboxId);
    if (inbox?.channelType !== "Channel::Api") {
      throw new ApiError("forbidden", "Message status update is only allowed for API inboxes");
    }
  }
  // A prompt's answer is the contact's (the public update, or the survey page as the system):
  // an agent or bot writing it would record a CSAT rating or form reply in the visitor's name.
  if (
    input.content_attributes !== undefined &&
    Object.hasOwn(input.content_attributes, "submitted_values") &&
    scope.actor.kind !== "contact" &&
    scope.actor.kind !== "system"
  ) {
    throw new ApiError(
      "forbidden",
      "Only the contact answers a message's prompt (submitted_values)",
    );
  }
  if (input.content !== undefined && (!canChange(scope, message) || isDeleted(message))) {
    throw new ApiError("forbidden", "Only the sender or an administrator may edit this message");
  }
  const values = pickDefined(input, {
    content: "content",
    status: "status",
  }) as Partial<NewMessage>;
  if (input.content_attributes !== undefined || input.external_error !== undefined) {
    values.contentAttributes = {
      ...message.contentAttributes,
      ...input.content_attributes,
      ...(input.external_error === undefined ? {} : { external_error: input.external_error }),
    };
  }
  return write(scope, conversation, message, values);
}

/** Soft delete, as Chatwoot does: the text is replaced, attachments are removed. */
export async function deleteMessage(
  scope: MessageScope,
  conversation: ConversationRow,
  id: number,
): Promise<MessageRow> {
  const message = await loadMessage(scope, conversation, id);
  if (!canChange(scope, message)) {
    throw new ApiError("forbidden", "Only the sender or an administrator may delete this message");
  }
  const { db, env } = scope.deps;
  const keys = await attachmentKeysOf(db, message.id);
  await deleteAttachmentsOf(db, message.id);
  await deleteStored(env, keys);
  return write(scope, conversation, message, {
    content: DELETED_CONTENT,
    contentAttributes: { ...message.contentAttributes, deleted: true },
  });
}

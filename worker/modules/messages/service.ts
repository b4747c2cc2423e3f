import type { ConversationRow } from "../../db/schema";
import { commit, recorderOf } from "../../events/commit";
import { invalidField } from "../../lib/errors";
import { performerOf } from "../access-tokens/service";
import { type AnswerAt, roomFor } from "../conversation-room/stub";
import type { AppendRequest, AppendResult } from "../conversation-room/types";
import { changedAttributes, changeEvents } from "../conversations/events";
import { hasActiveBot } from "../conversations/queries";
import { storeUpload } from "../files/storage";
import { findInbox } from "../inboxes/queries";
import { type MessageTouch, type NewAttachment, reopenConversation } from "./queries";
import { fileTypeOf, MESSAGE_TYPE_CODES } from "./types";
import { type MessageScope, senderJson } from "./views";

export { contextOf, type MessageScope, viewFor } from "./views";

export type CreateMessageInput = {
  content?: string | null;
  messageType?: "incoming" | "outgoing" | "activity" | "template";
  private?: boolean;
  contentType?: string;
  contentAttributes?: Record<string, unknown>;
  echoId?: string;
  idempotencyKey?: string;
  files?: File[];
};

/**
 * The stored idempotency key: the sender's Idempotency-Key, else its echo_id (the widget's and
 * Chatwoot clients' retry id), in the namespace of whoever sends it (a user, bot, contact or
 * rule), so one sender's key never answers another's request with another's message (a visitor's
 * echo_id finding an agent's private note).
 */
function idempotencyKeyOf(scope: MessageScope, input: CreateMessageInput): string | null {
  const key = input.idempotencyKey ?? (input.echoId ? `echo:${input.echoId}` : undefined);
  if (key === undefined) {
    return null;
  }
  const by = performerOf(scope.actor);
  return `${by.type}:${by.id ?? ""}:${key}`;
}

function senderOf(scope: MessageScope, conversation: ConversationRow, type: string) {
  if (type === "incoming") {
    return { senderType: "Contact" as const, senderId: conversation.contactId };
  }
  // Chatwoot parity: automation and message templates write with no sender.
  if (type === "activity" || scope.actor.kind === "automation" || scope.actor.kind === "system") {
    return { senderType: null, senderId: null };
  }
  const { actor } = scope;
  return actor.kind === "bot"
    ? { senderType: "AgentBot" as const, senderId: actor.bot.id }
    : { senderType: "User" as const, senderId: actor.kind === "user" ? actor.user.id : null };
}

function touchFor(
  type: string,
  isPrivate: boolean,
  senderType: string | null,
  at: number,
): MessageTouch {
  if (type === "incoming") {
    return { kind: "incoming", at };
  }
  if (type === "activity") {
    return { kind: "none", at };
  }
  // Only a human's public reply answers the contact (first reply, end of the wait).
  if (!isPrivate && senderType === "User") {
    return { kind: "human_reply", at };
  }
  return { kind: "activity", at };
}

/**
 * Appends a message through the conversation's room (the single writer that gives it `seq`),
 * then reopens the conversation when the message asks for it. Answered once D1 has it, or at
 * the room's commit (`answerAt` "commit") for a caller whose reads merge the room's tail
 * (tail.ts: the agents' API).
 */
export async function createMessage(
  scope: MessageScope,
  conversation: ConversationRow,
  input: CreateMessageInput,
  answerAt: AnswerAt = "d1",
): Promise<AppendResult> {
  const req = await prepareMessage(scope, conversation, input);
  const result = await roomFor(scope.deps.env, scope.account.id, conversation.id).appendMessage(
    req,
    answerAt,
  );
  await reopenAfter(scope, conversation, req, result);
  return result;
}

/**
 * What the room appends: the message checked by the API's rules, its sender, its files stored.
 * A message sent over the room's own socket is appended by the room itself (room.ts), which
 * then calls `reopenAfter` as `createMessage` does.
 * Chatwoot parity: incoming messages only in API inboxes.
 */
export async function prepareMessage(
  scope: MessageScope,
  conversation: ConversationRow,
  input: CreateMessageInput,
): Promise<AppendRequest> {
  const { deps } = scope;
  const type = input.messageType ?? "outgoing";
  const files = input.files ?? [];
  const content = input.content ?? null;
  if ((content === null || content.trim() === "") && files.length === 0) {
    throw invalidField("content", "can't be blank without attachments", "content can't be blank");
  }
  // Visitors write into any inbox; agents may only inject incoming messages into API inboxes.
  if (type === "incoming" && scope.actor.kind !== "contact") {
    const inbox = await findInbox(deps.db, scope.account.id, conversation.inboxId);
    if (inbox?.channelType !== "Channel::Api") {
      throw invalidField(
        "message_type",
        "incoming is only allowed in API inboxes",
        "Incoming messages are only allowed in Api inboxes",
      );
    }
  }
  const stored = await Promise.all(
    files.map((file) =>
      storeUpload(deps.env, scope.account.id, "attachments", file, { field: "attachments" }),
    ),
  );
  const at = deps.now();
  const isPrivate = type !== "incoming" && (input.private ?? false);
  const sender = senderOf(scope, conversation, type);
  const attachments: Omit<NewAttachment, "messageId">[] = stored.map((f) => ({
    accountId: scope.account.id,
    fileType: fileTypeOf(f.contentType),
    storageKey: f.key,
    fileName: f.fileName,
    contentType: f.contentType,
    fileSize: f.size,
  }));
  const view = {
    context: {
      displayId: conversation.displayId,
      assigneeId: conversation.assigneeId,
      lastActivityAt: conversation.lastActivityAt,
    },
    sender: await senderJson(scope, sender),
    origin: scope.origin,
  };
  return {
    conversationId: conversation.id,
    values: {
      accountId: scope.account.id,
      inboxId: conversation.inboxId,
      content,
      messageType: MESSAGE_TYPE_CODES[type],
      contentType: input.contentType ?? "text",
      contentAttributes: input.contentAttributes ?? {},
      private: isPrivate,
      ...sender,
      echoId: input.echoId ?? null,
      idempotencyKey: idempotencyKeyOf(scope, input),
      createdAt: at,
      updatedAt: at,
    },
    touch: touchFor(type, isPrivate, sender.senderType, at),
    contactId: type === "incoming" ? conversation.contactId : undefined,
    attachments,
    view,
    counters: conversation,
    // Chatwoot parity: every message but activity notes is a webhook event (private notes too).
    record: type === "activity" ? null : recorderOf(deps),
  };
}

/**
 * Chatwoot parity: a contact's message reopens a resolved or snoozed conversation (pending when
 * a bot runs the inbox); a replay of a stored message does not.
 */
export async function reopenAfter(
  scope: MessageScope,
  conversation: ConversationRow,
  req: AppendRequest,
  result: AppendResult,
): Promise<void> {
  if (
    req.values.messageType === MESSAGE_TYPE_CODES.incoming &&
    !result.duplicate &&
    ["resolved", "snoozed"].includes(conversation.status)
  ) {
    await reopen(scope, conversation, req.touch.at);
  }
}

/** The reopen and its status events commit together, and only if the reopen happened. */
async function reopen(scope: MessageScope, conversation: ConversationRow, at: number) {
  const { deps } = scope;
  const status = (await hasActiveBot(deps.db, conversation.inboxId)) ? "pending" : "open";
  const after = { ...conversation, status, snoozedUntil: null } as const;
  const events = changeEvents(conversation, changedAttributes(conversation, after));
  await commit(
    deps,
    [reopenConversation(deps.db, conversation.id, status, at)],
    events.map((e) => ({ ...e, ifChanged: true })),
    // The reopen is conditional: no row back, no change, no live frame.
    {
      conversation: (r) =>
        (r[0] as unknown[]).length > 0 ? { ...after, updatedAt: at } : undefined,
    },
  );
}

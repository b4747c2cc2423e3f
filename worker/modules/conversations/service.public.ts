import type { ConversationRow, MessageRow } from "../../db/schema";
import { commit } from "../../events/commit";
import { ApiError, invalidField } from "../../lib/errors";
import { PublicContactInputSchema } from "../contacts/schema.public";
import type { AppendResult } from "../conversation-room/types";
import { checkSubmission } from "../csat/service";
import { findMessage, newestSeq } from "../messages/queries";
import { asContactMessage, type ContactMessageInput } from "../messages/schema.requests";
import { createMessage, type MessageScope } from "../messages/service";
import { updateMessage } from "../messages/service.changes";
import { MESSAGE_TYPE_CODES } from "../messages/types";
import { firstRow } from "./events";
import { viewerOf } from "./policy";
import { type ContactViewer, updateConversationRow } from "./queries";
import {
  findOwnedByDisplayId,
  findPublicMessage,
  listOwned,
  publicMessagePage,
} from "./queries.public";
import { createConversation } from "./service";
import { toggleStatus } from "./service.actions";
import { readEvent } from "./service.seen";
import { setTyping } from "./service.typing";

/** A contact has at most this many conversations listed (its latest ones). */
export const LISTED_CONVERSATIONS = 100;

/** The public API's caller: a contact of the inbox (actor kind "contact"). */
export type ContactScope = MessageScope;

function contactViewer(scope: ContactScope): ContactViewer {
  const viewer = viewerOf(scope);
  if (viewer.kind !== "contact") {
    throw new Error("public API scope without a contact");
  }
  return viewer;
}

function actorOf(scope: ContactScope) {
  if (scope.actor.kind !== "contact") {
    throw new Error("public API scope without a contact");
  }
  return scope.actor;
}

/**
 * One of the contact's own conversations by display_id; any other (another contact's, another
 * inbox's, another contact_inbox's unless verified) is 404.
 */
export async function loadOwnConversation(
  scope: ContactScope,
  displayId: number,
): Promise<ConversationRow> {
  const row = await findOwnedByDisplayId(
    scope.deps.db,
    scope.account.id,
    contactViewer(scope),
    displayId,
  );
  if (!row) {
    throw new ApiError("not_found");
  }
  return row;
}

export const listOwnConversations = (scope: ContactScope) =>
  listOwned(scope.deps.db, scope.account.id, contactViewer(scope), LISTED_CONVERSATIONS);

/**
 * E19: a conversation of the caller's contact_inbox, through the account API's creation rules
 * (display_id in one statement; pending when a bot runs the inbox; resolved for a blocked contact).
 */
export function createOwnConversation(
  scope: ContactScope,
  customAttributes: Record<string, unknown> | undefined,
): Promise<ConversationRow> {
  const { contact, contactInbox } = actorOf(scope);
  return createConversation(scope, {
    inbox_id: contactInbox.inboxId,
    contact_id: contact.id,
    source_id: contactInbox.sourceId,
    custom_attributes: customAttributes,
  });
}

/** Chatwoot parity: a visitor can only resolve, never reopen (writing a message reopens). */
export const resolveOwnConversation = (scope: ContactScope, row: ConversationRow) =>
  row.status === "resolved"
    ? Promise.resolve(row)
    : toggleStatus(scope, row, { status: "resolved" });

/** Typing is never stored: an event for the live listeners, and an outbox row of its own. */
export function setContactTyping(scope: ContactScope, row: ConversationRow, on: boolean) {
  const { contact } = actorOf(scope);
  return setTyping(scope, row, {
    on,
    typer: { type: "contact", id: contact.id, name: contact.name },
    isPrivate: false,
  });
}

/** Up to the newest message stored when the update runs (its seq, read in the statement). */
export async function markSeenByContact(scope: ContactScope, row: ConversationRow) {
  const at = scope.deps.now();
  const update = updateConversationRow(scope.deps.db, row.id, {
    contactLastSeenAt: at,
    contactLastSeenSeq: newestSeq(row.id),
  });
  await commit(scope.deps, [update], [readEvent(row, "contact", at)], {
    conversation: (r) => firstRow<ConversationRow>(r),
  });
}

// --- messages ---------------------------------------------------------------------------------

/** Chatwoot's page: the latest 20, or the 20 before a message id. */
export const PUBLIC_MESSAGE_PAGE = 20;

/** E20: non-private messages, oldest first; `before` is a message id of this conversation. */
export async function listOwnMessages(
  scope: ContactScope,
  row: ConversationRow,
  before: number | undefined,
): Promise<MessageRow[]> {
  const { db } = scope.deps;
  // An id that is not this conversation's pages from nowhere rather than leaking anything.
  const beforeSeq =
    before === undefined ? undefined : ((await findMessage(db, row.id, before))?.seq ?? 0);
  return publicMessagePage(db, row.id, beforeSeq, PUBLIC_MESSAGE_PAGE);
}

/** A visitor's message: always incoming, sent by the contact, through the conversation's room. */
export async function sendAsContact(
  scope: ContactScope,
  row: ConversationRow,
  input: ContactMessageInput,
): Promise<AppendResult> {
  // The widget retries with the same echo_id: the room answers a retry with the first message.
  return createMessage(scope, row, asContactMessage(input));
}

/** An input_email's answer: `[{name: "email", value}]` as the widget sends it, or `{email}`. */
function submittedEmail(submitted: unknown): string {
  const raw = Array.isArray(submitted)
    ? (submitted.find((v) => v?.name === "email") ?? submitted[0])?.value
    : (submitted as { email?: unknown } | null)?.email;
  const parsed = PublicContactInputSchema.shape.email.safeParse(raw);
  if (!parsed.success || !parsed.data) {
    throw invalidField(
      "submitted_values",
      'must hold a valid email ([{"name": "email", "value": …}] or {"email": …})',
      "Enter a valid email address",
    );
  }
  return parsed.data;
}

/**
 * A visitor answers a bot or agent prompt (input_select, form, input_email, input_csat …): the
 * values land in content_attributes.submitted_values of a non-private outgoing message. An
 * input_email's answer is checked first and returned (with Chatwoot's submitted_email beside
 * it): the caller makes it the contact's email, as Chatwoot's widget endpoint does.
 */
export async function submitValues(
  scope: ContactScope,
  row: ConversationRow,
  messageId: number,
  submitted: unknown,
): Promise<{ message: MessageRow; email: string | null }> {
  const message = await findPublicMessage(scope.deps.db, row.id, messageId);
  if (!message) {
    throw new ApiError("not_found");
  }
  if (
    message.messageType !== MESSAGE_TYPE_CODES.outgoing &&
    message.messageType !== MESSAGE_TYPE_CODES.template
  ) {
    throw invalidField(
      "message_id",
      "is not an outgoing message",
      "Only an agent's or bot's message can be answered",
    );
  }
  checkSubmission(message, submitted);
  const email = message.contentType === "input_email" ? submittedEmail(submitted) : null;
  const updated = await updateMessage(scope, row, message.id, {
    content_attributes: {
      submitted_values: submitted,
      ...(email !== null && { submitted_email: email }),
    },
  });
  return { message: updated, email };
}

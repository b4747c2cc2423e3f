// The public API's wire shapes, taken from the Worker's zod schemas as types only (erased).
export type {
  PublicContactSession as ContactSession,
  WidgetEvent,
} from "../../../../worker/modules/contacts/schema.public";
export type { PublicConversation as Conversation } from "../../../../worker/modules/conversations/schema.public";
export type { PublicInbox as InboxSettings } from "../../../../worker/modules/inboxes/schema.public";
export type { ServerFrame } from "../../../../worker/modules/live/frames";
export type {
  Attachment,
  PublicMessage as Message,
} from "../../../../worker/modules/messages/schema";
export type { ClientFrame } from "../../../../worker/realtime/protocol";

/** Message types on the wire (Chatwoot's): the visitor's own, and activity notes. */
export const INCOMING = 0;
export const ACTIVITY = 2;

export type ContactInput = {
  name?: string;
  email?: string;
  phone_number?: string;
  identifier?: string;
  identifier_hash?: string;
  avatar_url?: string;
  custom_attributes?: Record<string, unknown>;
};

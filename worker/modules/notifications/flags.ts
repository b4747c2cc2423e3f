import { NOTIFICATION_TYPES, type NotificationType } from "../../db/schema";

/** Chatwoot's flag names: `email_<type>` and `push_<type>` for each notification type. */
export const EMAIL_FLAGS = NOTIFICATION_TYPES.map((t) => `email_${t}`);
export const PUSH_FLAGS = NOTIFICATION_TYPES.map((t) => `push_${t}`);

/**
 * A member who never saved settings: Chatwoot starts them with assignment only; Parley's in-app
 * notifications also default on for mentions and new messages in conversations they are assigned
 * to or take part in (conversation creation stays opt-in: it is every message of a busy inbox).
 */
export const DEFAULT_FLAGS = {
  email: ["email_conversation_assignment"],
  push: [
    "push_conversation_assignment",
    "push_conversation_mention",
    "push_assigned_conversation_new_message",
    "push_participating_conversation_new_message",
  ],
};

export type Flags = { email: readonly string[]; push: readonly string[] };

/** Chatwoot parity (NotificationBuilder): a notification is made if either flag is on. */
export const subscribed = (flags: Flags, type: NotificationType) =>
  flags.email.includes(`email_${type}`) || flags.push.includes(`push_${type}`);

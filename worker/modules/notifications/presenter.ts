import type { z } from "@hono/zod-openapi";
import type { ConversationRow, NotificationRow, NotificationType } from "../../db/schema";
import type { NotificationSchema } from "./schema";

/** Chatwoot's push titles (its en.yml notifications), with the conversation's display id. */
const TITLES: Record<NotificationType, (id: number) => string> = {
  conversation_creation: (id) => `[New conversation] - #${id} has been created`,
  conversation_assignment: (id) => `[Assigned to you] - #${id} has been assigned to you`,
  assigned_conversation_new_message: (id) => `[New message] - #${id}`,
  participating_conversation_new_message: (id) => `[New message] - #${id}`,
  conversation_mention: (id) => `You have been mentioned in conversation #${id}`,
};

export type NotificationWithConversation = {
  notification: NotificationRow;
  conversation: ConversationRow;
};

/** Chatwoot's notification partial; the conversation is the primary actor, by display id. */
export function presentNotification({
  notification: n,
  conversation: c,
}: NotificationWithConversation): z.infer<typeof NotificationSchema> {
  return {
    id: n.id,
    account_id: n.accountId,
    user_id: n.userId,
    notification_type: n.notificationType,
    push_message_title: TITLES[n.notificationType](c.displayId),
    primary_actor_type: "Conversation",
    primary_actor_id: c.displayId,
    primary_actor: {
      id: c.displayId,
      inbox_id: c.inboxId,
      status: c.status,
      assignee_id: c.assigneeId,
    },
    secondary_actor_type: n.secondaryActorType,
    secondary_actor_id: n.secondaryActorId,
    secondary_actor:
      n.secondaryActorType && n.secondaryActorId !== null
        ? { id: n.secondaryActorId, type: n.secondaryActorType.toLowerCase() }
        : null,
    read_at: n.readAt,
    snoozed_until: n.snoozedUntil,
    last_activity_at: n.lastActivityAt,
    created_at: n.createdAt,
    meta: n.meta,
  };
}

import type { ConversationRow, NotificationType } from "../../db/schema";
import {
  type AsyncListener,
  type AsyncListenerContext,
  memoized,
  type OutboxEvent,
} from "../../events/outbox-types";
import { inboxMemberIds } from "../inboxes/queries";
import { feedFor } from "../live/stubs";
import { eventConversation, eventMessage } from "../webhooks/queries.batch";
import { DEFAULT_FLAGS, subscribed } from "./flags";
import { mentionedIds } from "./mentions";
import { presentNotification } from "./presenter";
import { insertCounting, settingsOf } from "./queries";
import {
  addParticipantRows,
  eventParticipantIds,
  teamMemberIdsOf,
  upsertMentions,
  usersWithInboxAccess,
} from "./queries.participants";

type Planned = { userId: number; type: NotificationType; actor?: { type: string; id: number } };

/**
 * Chatwoot parity (NotificationListener): the notifications a committed event makes, one per
 * user and event, only for users subscribed to the type, never for whoever acted; each new one
 * is sent live on the account feed to its user alone. Registered as a queue handler, so it runs
 * at least once per outbox event; the (user, event, type) key makes a second run write nothing.
 * The conversation, message and participants are read once per queue batch for all its events.
 */
export const notificationListener: AsyncListener = async (event, ctx) => {
  if (event.conversationId === null) {
    return;
  }
  const conversation = await eventConversation(ctx, event);
  if (!conversation) {
    return;
  }
  const planned = await plan(event, ctx, conversation);
  const actor = event.payload.performed_by;
  const actorId = actor?.type === "user" ? actor.id : null;
  await notify(
    ctx,
    event,
    conversation,
    planned.filter((p) => p.userId !== actorId),
  );
};

async function plan(
  event: OutboxEvent,
  ctx: AsyncListenerContext,
  conversation: ConversationRow,
): Promise<Planned[]> {
  switch (event.name) {
    case "conversation_created": {
      const inboxId = conversation.inboxId;
      const members = await memoized(ctx, `members:${inboxId}`, () =>
        inboxMemberIds(ctx.db, inboxId),
      );
      return members.map((userId) => ({ userId, type: "conversation_creation" }));
    }
    case "conversation_updated": {
      const change = event.payload.changed_attributes?.assignee_id;
      const assignee = change?.current_value;
      if (typeof assignee !== "number") {
        return [];
      }
      await ctx.db.batch([
        addParticipantRows(ctx.db, event.accountId, conversation.id, [assignee]),
      ]);
      const by = event.payload.performed_by;
      const actor = by?.type === "user" && by.id !== null ? { type: "User", id: by.id } : undefined;
      return [{ userId: assignee, type: "conversation_assignment", actor }];
    }
    case "message_created":
      return messagePlan(event, ctx, conversation);
    default:
      return [];
  }
}

/** A new message: mentions first, then the assignee, then the other participants (one each). */
async function messagePlan(
  event: OutboxEvent,
  ctx: AsyncListenerContext,
  conversation: ConversationRow,
): Promise<Planned[]> {
  const message = await eventMessage(ctx, event);
  // Chatwoot's notifiable messages: incoming and outgoing (private notes included).
  if (!message || (message.messageType !== 0 && message.messageType !== 1)) {
    return [];
  }
  const actor = { type: "Message", id: message.id };
  const senderId = message.senderType === "User" ? message.senderId : null;
  const planned: Planned[] = [];
  if (message.private) {
    const named = mentionedIds(message.content);
    const teamUsers = await teamMemberIdsOf(ctx.db, event.accountId, named.teams);
    const candidates = [...new Set([...named.users, ...teamUsers])].filter((u) => u !== senderId);
    const mentioned = await usersWithInboxAccess(
      ctx.db,
      event.accountId,
      conversation.inboxId,
      candidates,
    );
    if (mentioned.length > 0) {
      await ctx.db.batch([
        upsertMentions(ctx.db, event.accountId, conversation.id, mentioned, message.createdAt),
        addParticipantRows(ctx.db, event.accountId, conversation.id, mentioned),
      ]);
      planned.push(
        ...mentioned.map((userId) => ({ userId, type: "conversation_mention" as const, actor })),
      );
    }
  }
  const assignee = conversation.assigneeId;
  if (assignee !== null && assignee !== senderId) {
    planned.push({ userId: assignee, type: "assigned_conversation_new_message", actor });
  }
  for (const userId of await eventParticipantIds(ctx, event)) {
    if (userId !== senderId) {
      planned.push({ userId, type: "participating_conversation_new_message", actor });
    }
  }
  const seen = new Set<number>();
  return planned.filter((p) => !seen.has(p.userId) && seen.add(p.userId));
}

async function notify(
  ctx: AsyncListenerContext,
  event: OutboxEvent,
  conversation: ConversationRow,
  planned: Planned[],
) {
  if (planned.length === 0) {
    return;
  }
  const userIds = planned.map((p) => p.userId);
  // The events of a batch mostly notify the same few users.
  const settings = await memoized(
    ctx,
    `settings:${event.accountId}:${[...userIds].sort((a, b) => a - b).join(",")}`,
    () => settingsOf(ctx.db, event.accountId, userIds),
  );
  const flagsOf = (userId: number) => {
    const row = settings.find((s) => s.userId === userId);
    return row ? { email: row.emailFlags, push: row.pushFlags } : DEFAULT_FLAGS;
  };
  const at = ctx.now();
  const rows = planned
    .filter((p) => subscribed(flagsOf(p.userId), p.type))
    .map((p) => ({
      accountId: event.accountId,
      userId: p.userId,
      notificationType: p.type,
      conversationId: conversation.id,
      secondaryActorType: p.actor?.type ?? null,
      secondaryActorId: p.actor?.id ?? null,
      sourceEventId: event.id,
      lastActivityAt: at,
      createdAt: at,
      updatedAt: at,
    }));
  if (rows.length === 0) {
    return;
  }
  // The new rows and their users' unread counts in one transaction: each count holds its row.
  const { made, unread } = await insertCounting(ctx.db, event.accountId, rows, at);
  const feed = feedFor(ctx.env, event.accountId);
  await Promise.all(
    made.map(async (notification) => {
      const unread_count = unread.get(notification.userId) ?? 0;
      const data = {
        notification: presentNotification({ notification, conversation }),
        unread_count,
      };
      await feed.publish({
        frame: { event: "notification.created", data },
        userId: notification.userId,
      });
    }),
  );
}

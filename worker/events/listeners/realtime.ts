import { createDb } from "../../db/client";
import {
  presentConversationForContact,
  presentConversationSummary,
} from "../../modules/conversations/presenter.realtime";
import type { ConversationRow } from "../../modules/conversations/queries";
import { findUser } from "../../modules/users/queries";
import { feedFor, roomFor } from "../../realtime/room";
import { roomConversation } from "../../realtime/room-typing";
import type { ListenerContext } from "../bus";
import type { Listener } from "../registry";

const room = (ctx: ListenerContext, c: ConversationRow) => roomFor(ctx.env, ctx.accountId, c.id);

const toFeed = (
  ctx: ListenerContext,
  c: ConversationRow,
  event:
    | "conversation.created"
    | "conversation.updated"
    | "conversation.status_changed"
    | "conversation.assignee_changed",
) =>
  feedFor(ctx.env, ctx.accountId).publish({
    event,
    inboxId: c.inboxId,
    data: presentConversationSummary(c),
  });

/** Live frames for conversation changes: to the conversation's room and the account's feed. */
export const realtimeListener: Listener = {
  "conversation.created": async ({ conversation }, ctx) => {
    await toFeed(ctx, conversation, "conversation.created");
  },
  "conversation.updated": async ({ conversation, changed }, ctx) => {
    await Promise.all([
      room(ctx, conversation).publish({
        event: "conversation.updated",
        agentData: { ...presentConversationSummary(conversation), changed_attributes: changed },
        contactData: null,
      }),
      toFeed(ctx, conversation, "conversation.updated"),
    ]);
  },
  "conversation.status_changed": async ({ conversation, previousStatus }, ctx) => {
    await Promise.all([
      room(ctx, conversation).publish({
        event: "conversation.status_changed",
        agentData: { ...presentConversationSummary(conversation), previous_status: previousStatus },
        contactData: presentConversationForContact(conversation),
      }),
      toFeed(ctx, conversation, "conversation.status_changed"),
    ]);
  },
  "assignee.changed": async ({ conversation, previousAssigneeId }, ctx) => {
    const user =
      conversation.assigneeId === null
        ? undefined
        : await findUser(createDb(ctx.env.DB), conversation.assigneeId);
    const assignee = user
      ? { id: user.id, name: user.displayName ?? user.name, avatar_url: user.avatarUrl ?? "" }
      : null;
    await Promise.all([
      room(ctx, conversation).publish({
        event: "conversation.assignee_changed",
        agentData: {
          ...presentConversationSummary(conversation),
          assignee,
          previous_assignee_id: previousAssigneeId,
        },
        contactData: { id: conversation.displayId, assignee },
      }),
      toFeed(ctx, conversation, "conversation.assignee_changed"),
    ]);
  },
  "team.changed": async ({ conversation }, ctx) => {
    await toFeed(ctx, conversation, "conversation.updated");
  },
  "conversation.read": async ({ conversation, by, at }, ctx) => {
    const data = { id: conversation.displayId, by, at };
    await room(ctx, conversation).publish({
      event: "conversation.read",
      agentData: data,
      contactData: data,
    });
  },
  "conversation.typing_on": async ({ conversation, typer, isPrivate }, ctx) => {
    await room(ctx, conversation).setTyping(typer, true, isPrivate, roomConversation(conversation));
  },
  "conversation.typing_off": async ({ conversation, typer, isPrivate }, ctx) => {
    await room(ctx, conversation).setTyping(
      typer,
      false,
      isPrivate,
      roomConversation(conversation),
    );
  },
};

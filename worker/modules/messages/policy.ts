import type { MessageRow } from "../../db/schema";
import type { ConversationScope } from "../conversations/access";

/** Administrators may change any message; others only what they sent themselves. */
export function canChange(scope: ConversationScope, message: MessageRow): boolean {
  if (scope.role === "administrator") {
    return true;
  }
  const { actor } = scope;
  if (actor.kind === "user") {
    return message.senderType === "User" && message.senderId === actor.user.id;
  }
  if (actor.kind === "bot") {
    return message.senderType === "AgentBot" && message.senderId === actor.bot.id;
  }
  return false;
}

export const isDeleted = (message: MessageRow) => message.contentAttributes.deleted === true;

import type { ConversationStatus } from "../db/schema";
import type { ConversationRow } from "../modules/conversations/queries";
import type { MessageRow } from "../modules/messages/queries";

/** Who is typing (never stored): a contact, an agent or a bot. */
export type Typer = { type: "contact" | "user" | "agent_bot"; id: number; name: string };

export type ChangedAttributes = Record<string, { previous_value: unknown; current_value: unknown }>;

/**
 * The only list of domain events (Chatwoot's names), each with the rows its listeners need.
 * Services emit after their write has committed; nothing emits from queries.
 */
export type EventMap = {
  "conversation.created": { conversation: ConversationRow };
  "conversation.updated": { conversation: ConversationRow; changed: ChangedAttributes };
  "conversation.status_changed": {
    conversation: ConversationRow;
    previousStatus: ConversationStatus;
  };
  "assignee.changed": { conversation: ConversationRow; previousAssigneeId: number | null };
  "team.changed": { conversation: ConversationRow; previousTeamId: number | null };
  "conversation.read": { conversation: ConversationRow; by: "contact" | "agent"; at: number };
  "conversation.typing_on": { conversation: ConversationRow; typer: Typer; isPrivate: boolean };
  "conversation.typing_off": { conversation: ConversationRow; typer: Typer; isPrivate: boolean };
  "message.created": { conversation: ConversationRow; message: MessageRow };
  "message.updated": { conversation: ConversationRow; message: MessageRow };
};

export type EventName = keyof EventMap;

export type DomainEvent = { [K in EventName]: { name: K; payload: EventMap[K] } }[EventName];

import type { SQL } from "drizzle-orm";
import type { ConversationRow, ConversationStatus } from "../db/schema";
import type { EventName } from "./names";

/** Who is typing (never stored): a contact, an agent or a bot. */
export type Typer = { type: "contact" | "user" | "agent_bot"; id: number; name: string };

export type ChangedAttributes = Record<string, { previous_value: unknown; current_value: unknown }>;

/** Who caused an event; automation ignores events its own rules caused (no loops). */
export type PerformedBy = {
  type: "user" | "agent_bot" | "contact" | "automation_rule" | "system";
  id: number | null;
};

type Changed = { inbox_id: number; changed_attributes: ChangedAttributes };
type Typing = { inbox_id: number; typer: Typer; is_private: boolean };
type MessageFacts = { inbox_id: number; message_id: number; is_private: boolean };

/**
 * What each event records: ids to load when it is handled, plus what only the moment knew
 * (what changed, who typed). These are the outbox row's payload, as stored.
 */
export type EventData = {
  "conversation.created": { inbox_id: number; contact_id: number };
  "conversation.status_changed": Changed & { previous_status: ConversationStatus };
  "conversation.updated": Changed;
  "message.created": MessageFacts;
  "message.updated": MessageFacts;
  "contact.created": { inbox_id?: number; contact_id: number };
  "contact.updated": { contact_id: number; changed_attributes: ChangedAttributes };
  "webwidget.triggered": {
    inbox_id: number;
    contact_id: number;
    contact_inbox_id: number;
    event_info: Record<string, unknown>;
  };
  "conversation.typing_on": Typing;
  "conversation.typing_off": Typing;
  "conversation.read": { by: "contact" | "agent"; at: number };
  "assignee.changed": { previous_assignee_id: number | null };
  "team.changed": { previous_team_id: number | null };
  /** From whom (null: everyone), in one inbox or (null) the whole account. */
  "access.revoked": {
    holders: { kind: "user" | "agent_bot"; id: number }[] | null;
    inbox_id: number | null;
  };
};

/** An id usable inside a batch: a number, or SQL naming a row an earlier statement wrote. */
export type IdRef = number | SQL;

/** Events whose record is inserted by the same batch: the data key naming its new id. */
type BatchIds = { "message.created": "message_id"; "contact.created": "contact_id" };

/** One domain event, as a service records it with its change. */
export type DomainEvent<K extends EventName = EventName> = {
  name: K;
  accountId: number;
  /** The conversation it belongs to (it takes the conversation's next event seq), if any. */
  conversation?: IdRef | null;
  /** Recorded only if the statement before it changed a row (a conditional update). */
  ifChanged?: boolean;
} & (K extends keyof BatchIds
  ?
      | { data: EventData[K]; refs?: undefined }
      /** The id only the batch knows: SQL naming the row it inserts. */
      | { data: Omit<EventData[K], BatchIds[K]>; refs: Record<BatchIds[K], SQL> }
  : { data: EventData[K]; refs?: undefined });

export type AnyDomainEvent = { [K in EventName]: DomainEvent<K> }[EventName];

/** What the outbox row's payload holds beside the event's data. */
export type Stamp = {
  performed_by: PerformedBy;
  /** The request's origin, so file URLs in payloads are absolute. */
  origin?: string;
  conversation_id?: number;
};

/** A committed event as live handlers get it: with the conversation as the change left it. */
export type CommittedEvent = { event: AnyDomainEvent; conversation?: ConversationRow };

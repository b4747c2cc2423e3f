import type { MessageRow } from "../../db/schema";
import type { Message, PublicMessage } from "./schema";
import type { AppendRequest } from "./writer";

/**
 * `presented` is the agents' view of a new message and `presentedPublic` the contact's (null for
 * a private note); both are absent for an idempotent replay. `eventIds` are the outbox rows
 * committed with it; the room has sent them to the queue.
 */
export type AppendResult = {
  message: MessageRow;
  duplicate: boolean;
  presented?: Message;
  presentedPublic?: PublicMessage | null;
  eventIds: number[];
};

/** What appends a message: the room's stub, or the room itself when a socket sends. */
export type Appender = { appendMessage(req: AppendRequest): Promise<AppendResult> };

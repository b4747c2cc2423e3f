import type { AttachmentRow, ConversationRow, MessageRow } from "../../db/schema";
import type { Bindings } from "../../env";
import type { Recorder } from "../../events/commit";
import type { ActionReply, MessageFrame, SocketIdentity } from "../../realtime/protocol";
import type { Holder } from "../../realtime/revocation";
import type { RoomConversation } from "../../realtime/room-typing";
import type { MessageConversationContext } from "../messages/presenter";
import type {
  CounterInput,
  Counters,
  MessageTouch,
  NewAttachment,
  NewMessage,
} from "../messages/queries";
import type { Message, PublicMessage, Sender } from "../messages/schema";

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

/** The room's views of a stored message: the agents' and the contact's (null: private). */
export type Presented = { presented: Message; presentedPublic: PublicMessage | null };

/** Called in seq order once a message is stored: the room broadcasts it and answers its views. */
export type Written = (
  row: MessageRow,
  attachments: AttachmentRow[],
  req: AppendRequest,
  counters: Counters,
) => Presented;

/** What appends a message: the room's stub, or the room itself when a socket sends. */
export type Appender = { appendMessage(req: AppendRequest): Promise<AppendResult> };

/** The room as a message sent over its socket sees it: the writer, and its conversation row. */
export type SocketRoom = Appender & {
  /** The room's copy of the row, `load`ed when it has none. */
  conversation(load: () => Promise<ConversationRow>): Promise<ConversationRow>;
  /** A write was refused: read the row again next time. */
  forgetConversation(): void;
};

/**
 * What the room does with the message and read frames its sockets send, given to it when it is
 * built (worker/index.ts binds `socketActions` of socket-actions/actions.ts). Each answers an
 * ack, an error frame, or nothing; nothing is stored when it is an error.
 */
export type SocketActions = {
  message(
    room: SocketRoom,
    env: Bindings,
    conversation: RoomConversation,
    who: SocketIdentity,
    frame: MessageFrame,
  ): Promise<ActionReply>;
  read(
    room: SocketRoom,
    env: Bindings,
    conversation: RoomConversation,
    who: SocketIdentity,
  ): Promise<ActionReply>;
  /** Access was revoked: forget what was cached about these holders (null: everyone). */
  forget(conversation: RoomConversation, holders: Holder[] | null): void;
};

/** What the room needs to show a message to agents and to the contact. */
export type MessageView = {
  sender: Sender | null;
  context: MessageConversationContext;
  origin: string;
};

/** A new message's view: the room reads the counters with the write itself. */
export type AppendView = Omit<MessageView, "context"> & {
  context: Omit<MessageConversationContext, "unreadCount" | "sourceId">;
};

export type AppendRequest = {
  conversationId: number;
  values: Omit<NewMessage, "seq" | "conversationId">;
  touch: MessageTouch;
  /** The contact whose last_activity_at moves (incoming messages). */
  contactId?: number;
  /** Files already stored in R2, recorded in the same batch as the message. */
  attachments?: Omit<NewAttachment, "messageId">[];
  view: AppendView;
  /** The conversation's counters to read back with the write (for the presenter). */
  counters: CounterInput;
  /** Records message.created in the message's batch; null for messages with no event. */
  record: Recorder | null;
  /**
   * A socket sender's access, asked by the room when the message commits (no D1 read): false
   * once a revocation of the sender reached the room after their frame arrived, or the room's
   * conversation row is no longer in the socket's inbox; the message is then refused with
   * not_found and nothing is stored. Set by the room itself, never logged.
   */
  allowed?: () => boolean;
};

import type { AttachmentRow, ConversationRow, MessageRow } from "../../db/schema";
import type { Recorder } from "../../events/commit";
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
 * a private note); both are absent for an idempotent replay. Its outbox rows reach the queue
 * from the account's log writer once D1 has them.
 */
export type AppendResult = {
  message: MessageRow;
  duplicate: boolean;
  presented?: Message;
  presentedPublic?: PublicMessage | null;
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
   * A socket sender's access, asked by the room when the message commits (no D1 read), with the
   * conversation row it holds then: false once a revocation of the sender reached the room after
   * their frame arrived, or that row is no longer in the socket's inbox; the message is then
   * refused with not_found and nothing is stored. Set by the room itself, never logged.
   */
  allowed?: (row: ConversationRow | undefined) => boolean;
};

/** A message of a group, once its place came up: what the writer hands over. */
export type Ready = {
  req: AppendRequest;
  /** Answered once the message is in D1 (callers through the stub, unless "commit" asked). */
  durable: boolean;
  seq: number;
  id: number;
  resolve: (result: AppendResult) => void;
  reject: (err: unknown) => void;
};

/** What an entry keeps of its append: everything but the access check (asked before it commits). */
export type LoggedRequest = Omit<AppendRequest, "allowed">;

/** A message committed in the room and not in D1 yet (queries.wal.ts). */
export type LogEntry = { id: number; seq: number; req: LoggedRequest; row: MessageRow };

import { DurableObject } from "cloudflare:workers";
import { createDb } from "../db/client";
import type { Bindings } from "../env";
import type { Recorder } from "../events/outbox";
import type { Typer } from "../events/types";
import {
  type AttachmentRow,
  type MessageConversationContext,
  presentMessage,
  presentPublicMessage,
} from "../modules/messages/presenter";
import {
  type CounterInput,
  findByIdempotencyKey,
  type MessageRow,
  type MessageTouch,
  type NewAttachment,
  type NewMessage,
} from "../modules/messages/queries";
import type { Message, PublicMessage, Sender } from "../modules/messages/schema";
import {
  MessageWriter,
  type Presented,
  type UpdateRecorder,
  writeMessageUpdate,
} from "./message-writer";
import { frame, type ServerEvent, type SocketIdentity } from "./protocol";
import { RoomLog } from "./room-log";
import { RoomRelay } from "./room-relay";
import { RoomSockets } from "./room-sockets";
import { ROOM_CONVERSATION_HEADER, type RoomConversation, recordTypingChange } from "./room-typing";

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
  /** Records message_created in the message's batch; null for messages with no event. */
  record: Recorder | null;
};

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

/** A durable conversation event, with what each audience may see (null: hidden from it). */
export type RoomEvent = {
  event:
    | "conversation.status_changed"
    | "conversation.assignee_changed"
    | "conversation.updated"
    | "conversation.read";
  agentData: unknown;
  contactData: unknown | null;
};

/**
 * One per conversation: the single writer of its messages and the fan-out hub for everyone
 * watching it. Message `seq` is handed out synchronously (never across an await) so stored
 * order is arrival order; writes are pipelined to D1 and broadcast strictly in seq order.
 */
export class ConversationRoom extends DurableObject<Bindings> {
  private eventSeq: number;
  /** Broadcasts run in this chain, so frames leave in the order seqs were handed out. */
  private tail: Promise<void> = Promise.resolve();
  /** In-flight appends by Idempotency-Key, so a retry racing its original gets the same row. */
  private readonly inflight = new Map<string, Promise<AppendResult>>();
  private typingRecords: Promise<void> = Promise.resolve();
  private readonly log: RoomLog;
  private readonly writer: MessageWriter;
  private readonly sockets: RoomSockets;

  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    this.eventSeq = ctx.storage.kv.get<number>("event_seq") ?? 0;
    this.log = new RoomLog(ctx.storage.sql);
    this.writer = new MessageWriter(
      ctx.storage.kv,
      () => this.db(),
      (step) => this.enqueue(step),
      (row, attachments, req, counters) =>
        this.broadcastMessage("message.created", row, attachments, {
          ...req.view,
          context: {
            ...req.view.context,
            unreadCount: counters.unread,
            sourceId: counters.sourceId,
          },
        }),
      new RoomRelay(env, () => this.db()),
    );
    const ttl = Number(env.TYPING_TTL_MS);
    this.sockets = new RoomSockets(
      ctx,
      this.log,
      () => this.eventSeq,
      (typer, on, isPrivate) => this.recordTyping(typer, on, isPrivate),
      ttl > 0 ? ttl : undefined,
    );
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair("ping", "pong"));
  }

  async appendMessage(req: AppendRequest): Promise<AppendResult> {
    const key = req.values.idempotencyKey;
    if (!key) {
      return { ...(await this.writer.append(req)), duplicate: false };
    }
    const pending = this.inflight.get(key);
    if (pending) {
      // The original relays the events; the replay only learns the row.
      return { ...(await pending), duplicate: true, eventIds: [] };
    }
    const work = this.appendOnce(req, key);
    this.inflight.set(key, work);
    try {
      return await work;
    } finally {
      this.inflight.delete(key);
    }
  }

  /** Updates a message and records message_updated with it (unless `record` is null). */
  async updateMessage(
    conversationId: number,
    messageId: number,
    values: Partial<NewMessage>,
    view: MessageView,
    record: UpdateRecorder | null,
  ): Promise<{ message: MessageRow; eventIds: number[] } | undefined> {
    const { row, attachments, eventIds } = await writeMessageUpdate(
      this.db(),
      conversationId,
      messageId,
      values,
      record,
    );
    if (!row) {
      return undefined;
    }
    await this.enqueue(() => {
      this.broadcastMessage("message.updated", row, attachments, view);
    });
    return { message: row, eventIds };
  }

  /** Publishes a durable conversation event to everyone allowed to see it. */
  async publish(event: RoomEvent): Promise<void> {
    await this.enqueue(() => this.emit(event.event, event.agentData, event.contactData));
  }

  /** Typing is never stored: it is relayed, and expires unless renewed. */
  async setTyping(
    typer: Typer,
    on: boolean,
    isPrivate: boolean,
    conversation: RoomConversation,
  ): Promise<void> {
    this.remember(conversation);
    await this.sockets.typing(typer, on, isPrivate);
  }

  override async alarm(): Promise<void> {
    await this.sockets.expireTyping();
  }

  /** Only the WebSocket upgrade: the Worker has authenticated the caller and says who it is. */
  override async fetch(request: Request): Promise<Response> {
    const identity = JSON.parse(
      request.headers.get("x-parley-identity") ?? "null",
    ) as SocketIdentity | null;
    if (request.headers.get("upgrade")?.toLowerCase() !== "websocket" || !identity) {
      return new Response("expected a WebSocket upgrade", { status: 426 });
    }
    const conversation = request.headers.get(ROOM_CONVERSATION_HEADER);
    if (conversation) {
      this.remember(JSON.parse(conversation) as RoomConversation);
    }
    const raw = new URL(request.url).searchParams.get("after");
    const after = raw === null ? Number.NaN : Number(raw);
    const pair = new WebSocketPair();
    this.sockets.accept(
      pair[1],
      identity,
      Number.isSafeInteger(after) && after >= 0 ? after : null,
    );
    return new Response(null, { status: 101, webSocket: pair[0] });
  }

  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    await this.sockets.receive(ws, message);
  }

  override async webSocketClose(ws: WebSocket, code: number): Promise<void> {
    this.sockets.closed(ws, code);
  }

  override async webSocketError(ws: WebSocket): Promise<void> {
    this.sockets.closed(ws, 1011);
  }

  private async appendOnce(req: AppendRequest, key: string): Promise<AppendResult> {
    const existing = await findByIdempotencyKey(this.db(), req.conversationId, key);
    if (existing) {
      return { message: existing, duplicate: true, eventIds: [] };
    }
    return { ...(await this.writer.append(req)), duplicate: false };
  }

  private broadcastMessage(
    event: "message.created" | "message.updated",
    row: MessageRow,
    attachments: AttachmentRow[],
    view: MessageView,
  ): Presented {
    const extras = { sender: view.sender, attachments, origin: view.origin };
    const forAgents = presentMessage(row, view.context, extras);
    const forContact = row.private
      ? null
      : presentPublicMessage(row, view.context.displayId, extras);
    this.emit(event, forAgents, forContact);
    return { presented: forAgents, presentedPublic: forContact };
  }

  /** Takes the next event seq, logs the frames and sends them; all synchronous. */
  private emit(event: ServerEvent, agentData: unknown, contactData: unknown | null): void {
    const seq = ++this.eventSeq;
    this.ctx.storage.kv.put("event_seq", seq);
    const agentFrame = frame(event, seq, agentData);
    const contactFrame = contactData === null ? null : frame(event, seq, contactData);
    this.log.append(seq, agentFrame, contactFrame);
    this.sockets.broadcast(agentFrame, contactFrame);
  }

  /** The conversation this room serves, kept for events the room itself originates. */
  private remember(conversation: RoomConversation): void {
    this.ctx.storage.kv.put("conversation", conversation);
  }

  /** Typing webhooks: recorded after the frames went out, never holding the sockets up. */
  private recordTyping(typer: Typer, on: boolean, isPrivate: boolean): void {
    const conversation = this.ctx.storage.kv.get<RoomConversation>("conversation");
    if (!conversation) {
      return; // a room from before rooms knew their conversation; nobody subscribed through it
    }
    // One after another, so an "off" is never committed before the "on" it ends.
    this.typingRecords = this.typingRecords.then(() =>
      recordTypingChange(this.env, conversation, { typer, on, isPrivate }).catch((err) => {
        // biome-ignore lint/suspicious/noConsole: the Worker's log sink
        console.log(
          JSON.stringify({ level: "error", msg: "typing event not recorded", error: String(err) }),
        );
      }),
    );
    this.ctx.waitUntil(this.typingRecords);
  }

  /** Runs `step` after every step queued before it; resolves when this one is done. */
  private enqueue(step: () => void | Promise<void>): Promise<void> {
    const done = this.tail.then(step);
    // A failed write must not stall later broadcasts; its caller sees the error.
    this.tail = done.catch(() => undefined);
    return done;
  }

  private db() {
    return createDb(this.env.DB);
  }
}

import type { AttachmentRow, ConversationRow, MessageRow } from "../../db/schema";
import type { Bindings } from "../../env";
import { ApiError } from "../../lib/errors";
import { createLogger } from "../../lib/logger";
import {
  type ActionFrame,
  type ActionReply,
  errorFrame,
  type RoomEvent,
  type SocketIdentity,
} from "../../realtime/protocol";
import type { Holder } from "../../realtime/revocation";
import { RoomBase } from "../../realtime/room-base";
import { RoomHandoff } from "../../realtime/room-frames";
import type { RoomConversation } from "../../realtime/room-typing";
import type { RoomFrame } from "../live/frames";
import { presentForFeed, presentForRoom } from "../messages/presenter";
import type { NewMessage } from "../messages/queries";
import { reopenAfter } from "../messages/service";
import { markRead } from "../socket-actions/read";
import { messageRequest, SocketSenders, senderScope } from "../socket-actions/send";
import { RoomConversationCache } from "./conversation-cache";
import { writerFor } from "./log-writer";
import { type UpdateRecorder, writeMessageUpdate } from "./message-update";
import {
  type AppendRequest,
  type MessageView,
  MessageWriter,
  type Presented,
} from "./message-writer";
import { setAsideEvent } from "./set-aside";
import type { AnswerAt, RoomStub } from "./stub";
import { type TailEntry, tailOf } from "./tail";
import type { AppendResult } from "./types";

export type { AppendResult };

/**
 * One per conversation: the single writer of its messages and the fan-out hub for everyone
 * watching it. Message `seq` is handed out synchronously (never across an await) so stored
 * order is arrival order; writes are pipelined to D1 and broadcast strictly in seq order. The
 * message events commit in the writer's batches, and their frames leave from here.
 */
export class MessageRoom extends RoomBase<RoomFrame> implements RoomStub {
  private readonly writer: MessageWriter;
  private readonly conversation = new RoomConversationCache();
  /** Feed frames (and outbox rows of its own D1 writes) for the account's writer to pass on. */
  private readonly handoff = new RoomHandoff();
  /** Who is on the sockets, resolved once and kept; their access when their message commits. */
  private readonly senders = new SocketSenders();

  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    this.writer = new MessageWriter(
      ctx.storage,
      () => this.db(),
      (step) => this.enqueue(step),
      (row, attachments, req, counters) =>
        this.broadcast("message.created", row, attachments, {
          ...req.view,
          context: {
            ...req.view.context,
            unreadCount: counters.unread,
            sourceId: counters.sourceId,
          },
        }),
      this.handoff,
      (accountId) => writerFor(env, accountId),
      (at) => {
        void this.armAt(at);
      },
      (aside) => void this.enqueue(() => this.frames.emit(setAsideEvent(aside))),
      this.conversation,
      (conversation, views, counters) => this.toFeed(conversation, views, counters.unread),
    );
  }

  /**
   * The account feed hears of a committed group, so agents' lists move without reading: the
   * frame goes with the writer call that carries the group's last message to D1, and the writer
   * sends the frames of its transaction's rooms together once D1 has their rows.
   */
  private toFeed(conversation: ConversationRow, views: Presented[], unread: number): void {
    const messages = views.map((v) => v.presented);
    const frame = presentForFeed(conversation, messages, unread);
    if (frame) {
      const seq = Math.max(...messages.map((m) => m.seq));
      this.handoff.frame(conversation.accountId, seq, { frame, inboxId: conversation.inboxId });
    }
  }

  /** A conversation event passing through: the room's copy of the row is no longer current. */
  override async publish(event: RoomEvent<RoomFrame>): Promise<void> {
    this.conversation.drop();
    this.writer.dropCounters();
    await super.publish(event);
  }

  /**
   * The typing expiry, then the message log's replication to D1 (its retry, or its first write
   * after a restart), which arms the alarm again while the log holds messages (replicator.ts).
   * Typing goes first: its expiry may set the alarm, and the log's arm then keeps the earlier.
   */
  override async alarm(): Promise<void> {
    try {
      await super.alarm();
    } finally {
      await this.writer.alarm();
    }
  }

  /** Revoked access: the sockets are closed; what was cached about their callers goes too. */
  protected override revoked(holders: Holder[] | null): void {
    this.senders.revoked(holders);
    this.conversation.drop();
    this.writer.dropCounters();
  }

  /** Answered once D1 has the message, or at the room's commit with `answerAt` "commit". */
  async appendMessage(req: AppendRequest, answerAt: AnswerAt = "d1"): Promise<AppendResult> {
    return this.writer.append(req, undefined, answerAt === "d1");
  }

  /** The log's messages D1 does not have yet: reads of this conversation merge them. */
  async unreplicated(): Promise<TailEntry[]> {
    return tailOf(this.writer.logged());
  }

  /** A socket's frame: control frames are answered by its sockets; messages and reads here. */
  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    const heard = await this.sockets.receive(ws, message);
    if (heard) {
      const reply = await this.act(heard.who, heard.action);
      if (reply) {
        this.sockets.reply(ws, reply);
      }
    }
  }

  /**
   * A message or read receipt from a socket, through the same services as HTTP (socket-actions/):
   * a message is checked as `POST …/messages` checks it and appended here, in the place it took
   * as its frame arrived, then acked. Every refusal is the HTTP API's error body, and stores
   * nothing.
   */
  protected async act(who: SocketIdentity, action: ActionFrame): Promise<ActionReply> {
    const ref = this.conversationRef();
    const echoId = action.type === "message.create" ? action.echo_id : undefined;
    if (!ref) {
      return errorFrame(new ApiError("not_found"), echoId);
    }
    if (action.type === "read") {
      return markRead(this.env, ref, who).then(
        () => null,
        (err) => this.refused(err, ref, who),
      );
    }
    // A message's place in the order is taken as its frame arrives, before its checks.
    const place = this.writer.reserve();
    const allowed = this.senders.check(who, ref);
    try {
      const sender = await this.senders.of(this.env, ref, who);
      const scope = senderScope(this.env, ref, who, sender);
      const row = await this.conversation.get(() => sender.conversation(scope.deps));
      const req = await messageRequest(scope, sender, row, action);
      const result = await this.writer.append(
        { ...req, allowed: (now) => allowed(now, sender) },
        place,
      );
      await reopenAfter(scope, row, req, result);
      await scope.deps.events.flush();
      const { id, seq } = result.message;
      return {
        event: "ack",
        data: { echo_id: action.echo_id, id, seq, duplicate: result.duplicate },
      };
    } catch (err) {
      return this.refused(err, ref, who, echoId);
    } finally {
      place.cancel();
    }
  }

  /**
   * A frame that failed: the HTTP API's error body as a frame (nothing was stored). A refusal of
   * the write's own check means what the room kept was wrong: sender and row are read again.
   */
  private refused(err: unknown, ref: RoomConversation, who: SocketIdentity, echoId?: string) {
    if (err instanceof ApiError && err.code === "not_found") {
      this.senders.forget(who);
      this.conversation.drop();
    }
    if (!(err instanceof ApiError)) {
      createLogger({ source: "socket", conversation_id: ref.id }).error("socket frame failed", {
        error: err,
      });
    }
    return errorFrame(err instanceof ApiError ? err : new ApiError("internal_error"), echoId);
  }

  /** Updates a message and records message.updated with it (unless `record` is null). */
  async updateMessage(
    conversationId: number,
    messageId: number,
    values: Partial<NewMessage>,
    view: MessageView,
    record: UpdateRecorder | null,
  ): Promise<{ message: MessageRow; eventIds: number[] } | undefined> {
    // An update follows every message the room logged before it, in D1 as in the room.
    await this.writer.drain();
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
      this.broadcast("message.updated", row, attachments, view);
    });
    return { message: row, eventIds };
  }

  /** A stored message to the room's sockets, in seq order; answers its two views. */
  private broadcast(
    event: "message.created" | "message.updated",
    row: MessageRow,
    attachments: AttachmentRow[],
    view: MessageView,
  ): Presented {
    const extras = { sender: view.sender, attachments, origin: view.origin };
    const views = presentForRoom(event, row, view.context, extras);
    this.frames.emit(views);
    return { presented: views.agent.data, presentedPublic: views.contact?.data ?? null };
  }
}

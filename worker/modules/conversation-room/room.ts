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
import { RoomRelay } from "../../realtime/room-relay";
import type { RoomConversation } from "../../realtime/room-typing";
import type { RoomFrame } from "../live/frames";
import { messageFeedFrame } from "../live/presenter";
import { type FeedStub, feedFor } from "../live/stubs";
import { presentMessage, presentPublicMessage } from "../messages/presenter";
import type { NewMessage } from "../messages/queries";
import { MESSAGE_TYPE_CODES } from "../messages/types";
import { RoomConversationCache } from "./conversation-cache";
import { writerFor } from "./log-writer";
import { type UpdateRecorder, writeMessageUpdate } from "./message-update";
import {
  type AppendRequest,
  type MessageView,
  MessageWriter,
  type Place,
  type Presented,
} from "./message-writer";
import type { SetAside } from "./replicator";
import { SenderAccess } from "./sender-access";
import type { AppendResult, SocketActions, SocketRoom } from "./types";

export type { AppendResult };

/** While the room's log holds messages, its alarm comes back at least this often. */
const LOG_RETRY_MS = 5_000;

/**
 * One per conversation: the single writer of its messages and the fan-out hub for everyone
 * watching it. Message `seq` is handed out synchronously (never across an await) so stored
 * order is arrival order; writes are pipelined to D1 and broadcast strictly in seq order. The
 * message events commit in the writer's batches, and their frames leave from here.
 */
export class MessageRoom extends RoomBase<RoomFrame> {
  /** In-flight appends by Idempotency-Key, so a retry racing its original gets the same row. */
  private readonly inflight = new Map<string, Promise<AppendResult>>();
  private readonly writer: MessageWriter;
  private readonly conversation = new RoomConversationCache();
  private feed: FeedStub | undefined;
  private readonly access = new SenderAccess();

  /**
   * `actions`: what a message or read frame from a socket does (socket-actions/), given by the
   * entry that binds the class (worker/index.ts): it uses the message service, which reaches
   * rooms through their stubs, so the room cannot import it.
   */
  constructor(
    ctx: DurableObjectState,
    env: Bindings,
    private readonly actions: SocketActions,
  ) {
    super(ctx, env);
    this.writer = new MessageWriter(
      ctx.storage,
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
      (accountId) => writerFor(env, accountId),
      (at) => {
        void this.armAt(at);
      },
      (aside) => this.rejected(aside),
      this.conversation,
      (conversation, views, counters) => this.toFeed(conversation, views, counters.unread),
    );
  }

  /**
   * The account feed hears of a group's last non-activity message (activity messages come with
   * conversation events of their own), so agents' lists move without reading. Fire and forget:
   * the room's order does not wait on the feed; one stub keeps the frames in order.
   */
  private toFeed(conversation: ConversationRow, views: Presented[], unread: number): void {
    const last = [...views]
      .reverse()
      .find((v) => v.presented.message_type !== MESSAGE_TYPE_CODES.activity);
    if (!last) {
      return;
    }
    this.feed ??= feedFor(this.env, conversation.accountId);
    const frame = messageFeedFrame(conversation, last.presented, unread);
    void this.feed.publish({ frame, inboxId: conversation.inboxId }).catch((err) => {
      this.feed = undefined;
      createLogger({ source: "room" }).error("feed not told of a message", { error: err });
    });
  }

  /** A message D1 keeps refusing left the log (replicator.ts): logged, and the sockets told. */
  private rejected({ entry, reason }: SetAside): void {
    createLogger({ source: "room" }).error("message set aside: D1 keeps refusing it", {
      message_id: entry.id,
      seq: entry.seq,
      conversation_id: entry.req.conversationId,
      reason,
    });
    const frame = {
      event: "message.rejected" as const,
      data: { id: entry.id, seq: entry.seq, echo_id: entry.row.echoId },
    };
    void this.enqueue(() => this.emit({ agent: frame, contact: entry.row.private ? null : frame }));
  }

  /** A conversation event passing through: the room's copy of the row is no longer current. */
  override async publish(event: RoomEvent<RoomFrame>): Promise<void> {
    this.conversation.drop();
    this.writer.dropCounters();
    await super.publish(event);
  }

  /**
   * The message log's replication to D1 (its retry, or its first write after a restart), then
   * the typing expiry; the alarm comes back while the log still holds messages.
   */
  override async alarm(): Promise<void> {
    const pending = await this.writer.alarm();
    await super.alarm();
    if (pending) {
      await this.armAt(Date.now() + LOG_RETRY_MS);
    }
  }

  /** Sets the alarm to `at` unless it is already due earlier (typing expiry shares it). */
  private async armAt(at: number): Promise<void> {
    const current = await this.ctx.storage.getAlarm();
    if (current === null || current > at) {
      await this.ctx.storage.setAlarm(at);
    }
  }

  /** Revoked access: the sockets are closed; what was cached about their callers goes too. */
  protected override revoked(holders: Holder[] | null): void {
    this.access.revoked(holders);
    this.conversation.drop();
    this.writer.dropCounters();
    const conversation = this.ctx.storage.kv.get<RoomConversation>("conversation");
    if (conversation) {
      this.actions.forget(conversation, holders);
    }
  }

  async appendMessage(req: AppendRequest): Promise<AppendResult> {
    return this.appendAt(req);
  }

  /** A message or read receipt from a socket: the actions the room was built with. */
  protected override act(who: SocketIdentity, action: ActionFrame): Promise<ActionReply> {
    const conversation = this.ctx.storage.kv.get<RoomConversation>("conversation");
    const room: SocketRoom = {
      appendMessage: (req) => this.appendAt(req),
      conversation: (load) => this.conversation.get(load),
      forgetConversation: () => this.conversation.drop(),
    };
    if (action.type === "read") {
      return conversation
        ? this.actions.read(room, this.env, conversation, who)
        : Promise.resolve(errorFrame(new ApiError("not_found")));
    }
    if (!conversation) {
      return Promise.resolve(errorFrame(new ApiError("not_found"), action.echo_id));
    }
    // A message's place in the order is taken as its frame arrives, before its checks.
    const place = this.writer.reserve();
    const allowed = this.access.check(who, conversation, () => this.conversation.peek());
    room.appendMessage = (req) => this.appendAt({ ...req, allowed }, place);
    return this.actions
      .message(room, this.env, conversation, who, action)
      .finally(() => place.cancel());
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
      this.broadcastMessage("message.updated", row, attachments, view);
    });
    return { message: row, eventIds };
  }

  private async appendAt(req: AppendRequest, place?: Place): Promise<AppendResult> {
    const write = () => (place ? place.fill(req) : this.writer.append(req));
    const key = req.values.idempotencyKey;
    if (!key) {
      return write();
    }
    const pending = this.inflight.get(key);
    if (pending) {
      // The original relays the events; the replay only learns the row.
      return { ...(await pending), duplicate: true, eventIds: [] };
    }
    const work = write();
    this.inflight.set(key, work);
    try {
      return await work;
    } finally {
      this.inflight.delete(key);
    }
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
    this.emit({
      agent: { event, data: forAgents },
      contact: forContact === null ? null : { event, data: forContact },
    });
    return { presented: forAgents, presentedPublic: forContact };
  }
}

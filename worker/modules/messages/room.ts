import type { AttachmentRow, MessageRow } from "../../db/schema";
import type { Bindings } from "../../env";
import type { ActionFrame, ActionReply, SocketIdentity } from "../../realtime/protocol";
import { RoomBase } from "../../realtime/room-base";
import { RoomRelay } from "../../realtime/room-relay";
import type { RoomConversation } from "../../realtime/room-typing";
import type { RoomFrame } from "../live/frames";
import { presentMessage, presentPublicMessage } from "./presenter";
import { findByIdempotencyKey, type NewMessage } from "./queries";
import type { AppendResult } from "./room-types";
import { socketActions } from "./socket-registry";
import { type UpdateRecorder, writeMessageUpdate } from "./write-update";
import { type AppendRequest, type MessageView, MessageWriter, type Presented } from "./writer";

export type { AppendResult };

/**
 * One per conversation: the single writer of its messages and the fan-out hub for everyone
 * watching it. Message `seq` is handed out synchronously (never across an await) so stored
 * order is arrival order; writes are pipelined to D1 and broadcast strictly in seq order. The
 * message events commit in the writer's batches, and their frames leave from here.
 */
export class ConversationRoom extends RoomBase<RoomFrame> {
  /** In-flight appends by Idempotency-Key, so a retry racing its original gets the same row. */
  private readonly inflight = new Map<string, Promise<AppendResult>>();
  private readonly writer: MessageWriter;

  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
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

  /** A message or read receipt from a socket: the registered handler (worker/wiring.ts). */
  protected override act(who: SocketIdentity, action: ActionFrame): Promise<ActionReply> {
    const conversation = this.ctx.storage.kv.get<RoomConversation>("conversation");
    if (!conversation) {
      return Promise.resolve({
        event: "error",
        data: { code: "not_found", message: "Resource could not be found", status: 404 },
      });
    }
    return socketActions()(this, this.env, conversation, who, action);
  }

  /** Updates a message and records message.updated with it (unless `record` is null). */
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
    this.emit({
      agent: { event, data: forAgents },
      contact: forContact === null ? null : { event, data: forContact },
    });
    return { presented: forAgents, presentedPublic: forContact };
  }
}

/**
 * The stubs' RPC surface as callers see it. Workers' RPC typing turns free-form JSON fields
 * (`Record<string, unknown>`) into `never`, so the stub is re-typed from the class.
 */
export type RoomStub = Pick<
  ConversationRoom,
  "appendMessage" | "updateMessage" | "publish" | "setTyping" | "fetch"
>;

/** The one place room names are made: one room per conversation, keyed by account and id. */
export function roomFor(env: Bindings, accountId: number, conversationId: number): RoomStub {
  return env.ROOMS.get(
    env.ROOMS.idFromName(`${accountId}:${conversationId}`),
  ) as unknown as RoomStub;
}

import { DurableObject } from "cloudflare:workers";
import { createDb } from "../db/client";
import type { Bindings } from "../env";
import { isUniqueViolation } from "../lib/db-errors";
import {
  findByIdempotencyKey,
  insertAttachment,
  insertMessage,
  type MessageRow,
  type MessageTouch,
  maxSeq,
  messageIdAt,
  type NewAttachment,
  type NewMessage,
  touchContact,
  touchConversation,
  updateMessageRow,
} from "../modules/messages/queries";

export type AppendRequest = {
  conversationId: number;
  values: Omit<NewMessage, "seq" | "conversationId">;
  touch: MessageTouch;
  /** The contact whose last_activity_at moves (incoming messages). */
  contactId?: number;
  /** Files already stored in R2, recorded in the same batch as the message. */
  attachments?: Omit<NewAttachment, "messageId">[];
};

export type AppendResult = { message: MessageRow; duplicate: boolean };

/**
 * One per conversation: the single writer of its messages. It hands out `seq` synchronously
 * (never across an await), so the stored order is the order of arrival, and concurrent sends
 * are pipelined to D1 without being serialised behind each other's round trips.
 */
export class ConversationRoom extends DurableObject<Bindings> {
  private lastSeq = 0;
  private seqReady: Promise<void> | undefined;
  /** In-flight appends by Idempotency-Key, so a retry racing its original gets the same row. */
  private readonly inflight = new Map<string, Promise<AppendResult>>();

  async appendMessage(req: AppendRequest): Promise<AppendResult> {
    await this.ensureSeq(req.conversationId);
    const key = req.values.idempotencyKey;
    if (!key) {
      return { message: await this.write(req), duplicate: false };
    }
    const pending = this.inflight.get(key);
    if (pending) {
      return { ...(await pending), duplicate: true };
    }
    const work = this.appendOnce(req, key);
    this.inflight.set(key, work);
    try {
      return await work;
    } finally {
      this.inflight.delete(key);
    }
  }

  async updateMessage(
    conversationId: number,
    messageId: number,
    values: Partial<NewMessage>,
  ): Promise<MessageRow | undefined> {
    const [row] = await updateMessageRow(this.db(), conversationId, messageId, values);
    return row;
  }

  private async appendOnce(req: AppendRequest, key: string): Promise<AppendResult> {
    const existing = await findByIdempotencyKey(this.db(), req.conversationId, key);
    if (existing) {
      return { message: existing, duplicate: true };
    }
    return { message: await this.write(req), duplicate: false };
  }

  /**
   * Writes at the next seq. If D1 already holds that seq (rows imported behind the room's back),
   * the room catches up with D1 once and writes again.
   */
  private async write(req: AppendRequest): Promise<MessageRow> {
    try {
      return await this.writeAt(req);
    } catch (err) {
      if (
        !isUniqueViolation(err) ||
        !/messages\.seq/.test(String(err) + String((err as Error).cause ?? ""))
      ) {
        throw err;
      }
      this.lastSeq = Math.max(this.lastSeq, await maxSeq(this.db(), req.conversationId));
      return this.writeAt(req);
    }
  }

  private writeAt(req: AppendRequest): Promise<MessageRow> {
    const seq = ++this.lastSeq;
    this.ctx.storage.kv.put("last_seq", seq);
    const db = this.db();
    const messageId = messageIdAt(req.conversationId, seq);
    const run = db.batch([
      insertMessage(db, { ...req.values, conversationId: req.conversationId, seq }),
      touchConversation(db, req.conversationId, req.touch),
      ...(req.contactId ? [touchContact(db, req.contactId, req.touch.at)] : []),
      ...(req.attachments ?? []).map((a) => insertAttachment(db, { ...a, messageId })),
    ]);
    return run.then(([rows]) => {
      const row = rows[0];
      if (!row) {
        throw new Error(`message ${seq} was not stored`);
      }
      return row;
    });
  }

  private ensureSeq(conversationId: number): Promise<void> {
    this.seqReady ??= (async () => {
      const stored = this.ctx.storage.kv.get<number>("last_seq");
      // A room that never wrote (or lost its storage) continues after what D1 already holds.
      this.lastSeq = stored ?? (await maxSeq(this.db(), conversationId));
    })().catch((err) => {
      this.seqReady = undefined;
      throw err;
    });
    return this.seqReady;
  }

  private db() {
    return createDb(this.env.DB);
  }
}

import type { Bindings } from "../env";
import { commit } from "../events/commit";
import { createDeps } from "../events/deps";
import type { Typer } from "../events/types";
import { createLogger } from "../lib/logger";
import {
  type ControlFrame,
  type Frame,
  frame,
  type SocketIdentity,
  TYPING_TTL_MS,
} from "./protocol";
import type { RoomFrames } from "./room-frames";

type TypingEntry = { typer: Typer; isPrivate: boolean; until: number };

/** Which conversation a room serves, as the Worker told it when it opened a socket. */
export type RoomConversation = { accountId: number; id: number; inboxId: number };

/** What a room keeps of its conversation row. */
export const roomConversation = (row: RoomConversation): RoomConversation => ({
  accountId: row.accountId,
  id: row.id,
  inboxId: row.inboxId,
});

export const ROOM_CONVERSATION_HEADER = "x-parley-conversation";
/** Where a room keeps the conversation it serves (its own storage's key-value half). */
export const CONVERSATION_KEY = "conversation";

/**
 * Records conversation.typing_on/off for a change of someone's typing state, whichever way it
 * came (a socket frame, an HTTP toggle, the expiry alarm): the room is the one place that
 * knows a change from a renewal, so receivers get one event per change, never one per keystroke.
 * The room sent the frames itself; the commit only adds the outbox row.
 */
export async function recordTypingChange(
  env: Bindings,
  conversation: RoomConversation,
  change: { typer: Typer; on: boolean; isPrivate: boolean },
): Promise<void> {
  const { typer, on, isPrivate } = change;
  const deps = createDeps(env, { performedBy: { type: typer.type, id: typer.id } });
  const data = { inbox_id: conversation.inboxId, typer, is_private: isPrivate };
  const where = { accountId: conversation.accountId, conversation: conversation.id };
  await commit(
    deps,
    [],
    [
      on
        ? { ...where, name: "conversation.typing_on", data }
        : { ...where, name: "conversation.typing_off", data },
    ],
  );
  // Sends the row to the queue; an unrelayed row is the cron sweep's.
  await deps.events.flush();
}

/**
 * Who is typing in a room. Typing is never stored beyond its expiry (the room's alarm): each
 * change is relayed to the room's sockets (renewals are not news) and recorded as an event after
 * the frames went out, never holding the sockets up.
 */
export class RoomTyping {
  private records: Promise<void> = Promise.resolve();

  constructor(
    private readonly ctx: DurableObjectState,
    private readonly env: Bindings,
    private readonly frames: RoomFrames<Frame>,
    private readonly ttlMs: number = TYPING_TTL_MS,
  ) {}

  async set(typer: Typer, on: boolean, isPrivate: boolean): Promise<void> {
    const key = `typing:${typer.type}:${typer.id}`;
    const was = this.ctx.storage.kv.get<TypingEntry>(key);
    if (on) {
      const until = Date.now() + this.ttlMs;
      this.ctx.storage.kv.put(key, { typer, isPrivate, until } satisfies TypingEntry);
      await this.scheduleExpiry(until);
    } else {
      this.ctx.storage.kv.delete(key);
    }
    // Renewals are not re-broadcast: only changes are news.
    if (on !== (was !== undefined)) {
      this.send(typer, on, isPrivate);
      this.record(typer, on, isPrivate);
    }
  }

  async expire(): Promise<void> {
    const now = Date.now();
    let next = Number.POSITIVE_INFINITY;
    for (const [key, entry] of this.ctx.storage.kv.list<TypingEntry>({ prefix: "typing:" })) {
      if (entry.until <= now) {
        this.ctx.storage.kv.delete(key);
        this.send(entry.typer, false, entry.isPrivate);
        this.record(entry.typer, false, entry.isPrivate);
      } else {
        next = Math.min(next, entry.until);
      }
    }
    if (Number.isFinite(next)) {
      await this.ctx.storage.setAlarm(next);
    }
  }

  /** Who is typing right now, as a newcomer of `role` may see it. */
  now(role: SocketIdentity["role"]): ControlFrame[] {
    const now = Date.now();
    const out: ControlFrame[] = [];
    for (const [, entry] of this.ctx.storage.kv.list<TypingEntry>({ prefix: "typing:" })) {
      if (entry.until > now && (role === "agent" || !entry.isPrivate)) {
        out.push({ event: "typing.on", data: { typer: entry.typer, is_private: entry.isPrivate } });
      }
    }
    return out;
  }

  private async scheduleExpiry(until: number): Promise<void> {
    const current = await this.ctx.storage.getAlarm();
    if (current === null || current > until) {
      await this.ctx.storage.setAlarm(until);
    }
  }

  private send(typer: Typer, on: boolean, isPrivate: boolean): void {
    const data = frame<ControlFrame>(
      { event: on ? "typing.on" : "typing.off", data: { typer, is_private: isPrivate } },
      this.frames.current(),
    );
    this.frames.broadcast(data, isPrivate ? null : data);
  }

  /** The typing webhooks' event, one after another: an "off" never commits before its "on". */
  private record(typer: Typer, on: boolean, isPrivate: boolean): void {
    const conversation = this.ctx.storage.kv.get<RoomConversation>(CONVERSATION_KEY);
    if (!conversation) {
      return; // a room from before rooms knew their conversation; nobody subscribed through it
    }
    this.records = this.records.then(() =>
      recordTypingChange(this.env, conversation, { typer, on, isPrivate }).catch((error) =>
        createLogger({ source: "room" }).error("typing event not recorded", { error }),
      ),
    );
    this.ctx.waitUntil(this.records);
  }
}

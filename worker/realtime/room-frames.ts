import { createLogger } from "../lib/logger";
import type { FeedEvent } from "./account-feed";
import {
  EVENT_LOG_LIMIT,
  type Frame,
  frame,
  type RoomEvent,
  type SocketIdentity,
} from "./protocol";

type Role = SocketIdentity["role"];
const ROLES: readonly Role[] = ["agent", "contact"];

/** A batch frame stays well under the runtime's 1 MiB message limit. */
const MAX_BATCH_CHARS = 256 * 1024;

/**
 * Hibernation tags of a socket: its role (who may see what), and its role with how it takes
 * durable frames: one frame each, or batched (clients that opted in at connect).
 */
export const socketTags = (role: Role, batch: boolean) => [
  role,
  `${role}:${batch ? "batch" : "single"}`,
];

export function sendAll(sockets: WebSocket[], data: string): void {
  for (const ws of sockets) {
    try {
      ws.send(data);
    } catch {
      // A dead socket is dropped; the runtime reports its close separately.
    }
  }
}

/**
 * The frames leaving a room for its audiences. Durable events (`emit`) take the next event seq,
 * are kept in the room's own SQLite storage so a reconnecting client gets exactly what it missed
 * (`since`; one frame per audience, `null` when hidden from it), and are sent. Single-frame
 * sockets get each frame at once; batching sockets get every frame of one turn (a group commit
 * of many messages) as one WebSocket message, a JSON array in seq order, at the end of the turn:
 * one send per socket instead of one per frame. Anything else sent to a socket calls `flush`
 * first, so nothing overtakes a frame that is owed.
 */
export class RoomFrames<F extends Frame> {
  private readonly kv: SyncKvStorage;
  private readonly sql: SqlStorage;
  private seq: number;
  private readonly pending: Record<Role, string[]> = { agent: [], contact: [] };
  private scheduled = false;

  constructor(private readonly ctx: DurableObjectState) {
    this.kv = ctx.storage.kv;
    this.sql = ctx.storage.sql;
    this.sql.exec(
      `CREATE TABLE IF NOT EXISTS events (
         seq INTEGER PRIMARY KEY,
         agent_frame TEXT,
         contact_frame TEXT
       )`,
    );
    // The last event kept is the last seq taken (trims keep the newest); `event_seq` is where
    // rooms stored it before, and where it stays if they have not emitted since.
    const kept = this.sql.exec<{ seq: number | null }>("SELECT max(seq) AS seq FROM events").one();
    this.seq = Math.max(kept.seq ?? 0, this.kv.get<number>("event_seq") ?? 0);
  }

  /** The seq of the last durable event. */
  current(): number {
    return this.seq;
  }

  /** Takes the next event seq, keeps the frames and sends them; all synchronous. */
  emit(event: RoomEvent<F>): void {
    // Its row in `events` keeps the seq: a restart goes on after the newest.
    const seq = ++this.seq;
    const agentFrame = frame(event.agent, seq);
    const contactFrame = event.contact === null ? null : frame(event.contact, seq);
    this.sql.exec(
      "INSERT INTO events (seq, agent_frame, contact_frame) VALUES (?, ?, ?)",
      seq,
      agentFrame,
      contactFrame,
    );
    if (seq % 500 === 0) {
      this.sql.exec("DELETE FROM events WHERE seq <= ?", seq - EVENT_LOG_LIMIT);
    }
    this.broadcast(agentFrame, contactFrame);
  }

  /** Frames after `after` for one audience, or null when the log no longer reaches back that far. */
  since(after: number, audience: Role): string[] | null {
    if (after >= this.seq) {
      return [];
    }
    const oldest = this.sql.exec<{ seq: number }>("SELECT min(seq) AS seq FROM events").one().seq;
    if (oldest === null || oldest > after + 1) {
      return null;
    }
    const column = audience === "agent" ? "agent_frame" : "contact_frame";
    return this.sql
      .exec<{ frame: string | null }>(
        `SELECT ${column} AS frame FROM events WHERE seq > ? ORDER BY seq`,
        after,
      )
      .toArray()
      .flatMap((row) => (row.frame === null ? [] : [row.frame]));
  }

  /** Frames to every socket of each audience (`null`: none for the contact), in order. */
  broadcast(agentFrame: string, contactFrame: string | null): void {
    this.queue("agent", agentFrame);
    if (contactFrame !== null) {
      this.queue("contact", contactFrame);
    }
    if (!this.scheduled) {
      this.scheduled = true;
      queueMicrotask(() => this.flush());
    }
  }

  flush(): void {
    this.scheduled = false;
    for (const role of ROLES) {
      const frames = this.pending[role];
      if (frames.length === 0) {
        continue;
      }
      this.pending[role] = [];
      const sockets = this.ctx.getWebSockets(`${role}:batch`);
      for (const batch of sockets.length > 0 ? chunks(frames) : []) {
        sendAll(sockets, batch);
      }
    }
  }

  private queue(role: Role, data: string): void {
    sendAll(this.ctx.getWebSockets(`${role}:single`), data);
    this.pending[role].push(data);
  }
}

/** What a room leaves to the account's writer to pass on once D1 holds the rows concerned. */
export type Handoff = {
  /** The account feed's frames, in the room's order, each with its group's last seq. */
  frames: { seq: number; event: FeedEvent }[];
  /** Outbox rows the room wrote to D1 itself (messages with files), for the writer to send. */
  outbox: number[];
};

/**
 * The room's side of the hand-off: each committed group's feed frame waits for the writer call
 * that carries the group's last message (its seq) to D1, and goes with it; the outbox rows of the
 * room's own D1 writes go with the next call. The writer sends them on once its transaction
 * commits, for all its rooms at once (log-writer.ts). Held in memory only: a room restarted
 * before its log reached D1 sends no frames for it (the feed is best-effort; lists refetch).
 */
export class RoomHandoff {
  private frames: Handoff["frames"] = [];
  private outbox: number[] = [];
  /** The account of what waits (the writer of an empty log is named by it). */
  accountId = 0;

  /** A group's frame, once its messages up to `seq` are in D1. */
  frame(accountId: number, seq: number, event: FeedEvent): void {
    this.accountId = accountId;
    this.frames.push({ seq, event });
  }

  /** Outbox rows already in D1 (the room's own write), for the queue. */
  sent(accountId: number, ids: number[]): void {
    this.accountId = accountId;
    this.outbox.push(...ids);
  }

  /** Something waits. */
  pending(): boolean {
    return this.frames.length > 0 || this.outbox.length > 0;
  }

  /** What a call that carries the log up to `seq` takes along (everything, by default). */
  take(seq = Number.POSITIVE_INFINITY): Handoff {
    const n = this.frames.findIndex((f) => f.seq > seq);
    const frames = this.frames.splice(0, n < 0 ? this.frames.length : n);
    return { frames, outbox: this.outbox.splice(0) };
  }

  /** The call failed (D1 may not have its rows): they go with a later one, in front. */
  giveBack(h: Handoff): void {
    this.frames.unshift(...h.frames);
    this.outbox.unshift(...h.outbox);
  }

  /**
   * The log is empty but something waits (a write of the room's own with files, or frames whose
   * messages an earlier attempt stored): to the writer now. Not awaited: the same stub delivers
   * the room's next call after it. Lost if it fails (the outbox rows are the sweep's; frames
   * sent later would pass newer ones).
   */
  handOffRest(writer: { handOff(accountId: number, h: Handoff): Promise<void> }): void {
    void writer.handOff(this.accountId, this.take()).catch((err) => {
      createLogger({ source: "room" }).error("writer not handed the room's frames", { error: err });
    });
  }
}

/** One frame alone as itself; several as arrays of at most MAX_BATCH_CHARS. */
function chunks(frames: string[]): string[] {
  if (frames.length === 1) {
    return frames;
  }
  const out: string[] = [];
  let current: string[] = [];
  let size = 0;
  for (const f of frames) {
    if (current.length > 0 && size + f.length > MAX_BATCH_CHARS) {
      out.push(`[${current.join(",")}]`);
      current = [];
      size = 0;
    }
    current.push(f);
    size += f.length + 1;
  }
  out.push(current.length === 1 ? (current[0] as string) : `[${current.join(",")}]`);
  return out;
}

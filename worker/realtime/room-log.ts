import { EVENT_LOG_LIMIT } from "./protocol";

/**
 * The room's recent durable events, in its own SQLite storage, so a reconnecting client gets
 * exactly what it missed. Each event has one frame per audience; `null` means hidden from it.
 */
export class RoomLog {
  constructor(private readonly sql: SqlStorage) {
    sql.exec(
      `CREATE TABLE IF NOT EXISTS events (
         seq INTEGER PRIMARY KEY,
         agent_frame TEXT,
         contact_frame TEXT
       )`,
    );
  }

  append(seq: number, agentFrame: string | null, contactFrame: string | null): void {
    this.sql.exec(
      "INSERT INTO events (seq, agent_frame, contact_frame) VALUES (?, ?, ?)",
      seq,
      agentFrame,
      contactFrame,
    );
    if (seq % 500 === 0) {
      this.sql.exec("DELETE FROM events WHERE seq <= ?", seq - EVENT_LOG_LIMIT);
    }
  }

  /** Frames after `after` for one audience, or null when the log no longer reaches back that far. */
  since(after: number, audience: "agent" | "contact", current: number): string[] | null {
    if (after >= current) {
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
}

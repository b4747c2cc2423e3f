/**
 * A read mark: when the other side last read, and up to which message seq (null: a mark stored
 * without one). Shared by the widget's "Read" and the agents' app's "Seen".
 */
export type ReadMark = { at: number; seq: number | null };

export const NO_READ: ReadMark = { at: 0, seq: null };

/** The mark of a read frame or a record's `*_last_seen_at` / `*_last_seen_seq`. */
export const readMark = (at: unknown, seq: unknown): ReadMark => ({
  at: Number(at) || 0,
  seq: typeof seq === "number" ? seq : null,
});

/**
 * Whether a read covers a message. By seq when the mark has one: clocks are whole seconds, so a
 * message stored later in the second of the read would pass a time comparison.
 */
export const covers = (mark: ReadMark, m: { seq: number; created_at: number }) =>
  mark.seq === null ? m.created_at <= mark.at : m.seq <= mark.seq;

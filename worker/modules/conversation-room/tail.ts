import type { MessageRow } from "../../db/schema";
import type { MessageTouch } from "../messages/queries";
import type { LogEntry } from "./types";

/** A message committed in the room and not in D1 yet, as reads of its conversation merge it. */
export type TailEntry = { row: MessageRow; touch: MessageTouch };

/**
 * The most a read is given of the log: D1 is that far behind only while it fails (and then the
 * read fails too) or catches up after an outage. The newest are kept: reads page from the end.
 */
export const TAIL_MAX = 1000;

/**
 * The room's unreplicated tail for a read of its conversation (messages/tail.ts merges it with
 * D1's rows): each logged message's row as D1 will hold it and how it moves the conversation's
 * clocks, in seq order. Empty for a room whose log is empty (a cold room reads its log table).
 */
export function tailOf(logged: LogEntry[]): TailEntry[] {
  return logged.slice(-TAIL_MAX).map((e) => ({ row: e.row, touch: e.req.touch }));
}

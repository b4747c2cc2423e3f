import type { Db } from "../../db/client";
import { addViews } from "./queries.articles";

/**
 * Article views are added up in the isolate and written in one D1 batch per flush: at most
 * one flush per FLUSH_MS, or sooner once FLUSH_AT views are waiting. A page view is never a
 * D1 write of its own; an isolate that is evicted loses what it had not flushed yet (at most
 * FLUSH_AT - 1 views), which a view counter can afford.
 */
const FLUSH_AT = 20;
const FLUSH_MS = 10_000;

const pending = new Map<number, number>();
let waiting = 0;
let lastFlush = 0;

export function countView(
  db: Db,
  articleId: number,
  defer: (work: Promise<unknown>) => void,
  now = Date.now(),
) {
  pending.set(articleId, (pending.get(articleId) ?? 0) + 1);
  waiting++;
  if (waiting >= FLUSH_AT || now - lastFlush >= FLUSH_MS) {
    lastFlush = now;
    defer(flushViews(db));
  }
}

export async function flushViews(db: Db): Promise<void> {
  const batch = [...pending];
  pending.clear();
  lastFlush = Date.now();
  waiting = 0;
  const [first, ...rest] = batch.map(([id, n]) => addViews(db, id, n));
  if (first) {
    await db.batch([first, ...rest]);
  }
}

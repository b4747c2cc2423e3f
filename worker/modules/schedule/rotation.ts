import type { Db } from "../../db/client";
import { readCursor, saveCursor } from "./queries.cursor";

/**
 * A bounded read that takes turns: at most `limit` items, those whose key is after where the
 * last call stopped first (ascending), then from the start again up to that key (wrapping
 * around); the key of the last item taken is where the next call goes on, or the start when the
 * call took everything there was. With more items waiting than `limit`, every one is taken
 * within ceil(waiting / limit) + 1 calls, rather than the same lowest keys every time (an
 * account with thousands due takes one call's share, and the accounts after it come next).
 * `page(after, limit, upTo)` answers the items with keys greater than `after` (and at most
 * `upTo` when given), ascending by key. Two calls at once may take the same items (both read the
 * cursor first): callers' work must be safe to repeat, as the tick's is.
 */
export async function rotatingRead<T>(
  db: Db,
  name: string,
  limit: number,
  page: (after: number, limit: number, upTo?: number) => Promise<T[]>,
  keyOf: (item: T) => number,
): Promise<T[]> {
  const after = await readCursor(db, name);
  const items = await page(after, limit);
  if (items.length < limit && after > 0) {
    items.push(...(await page(0, limit - items.length, after)));
  }
  const last = items.at(-1);
  const next = items.length < limit || last === undefined ? 0 : keyOf(last);
  if (next !== after) {
    await saveCursor(db, name, next);
  }
  return items;
}

import type { Db } from "../../db/client";
import { readCursor, saveCursor } from "./queries.cursor";

/**
 * A bounded read that takes turns: at most `limit` ids, those after where the last call stopped
 * first (ascending), then from the start again (wrapping around); the last id taken is where the
 * next call goes on. With more ids waiting than `limit`, every one is taken within
 * ceil(waiting / limit) + 1 calls, rather than the same lowest ids every time. `page(after,
 * limit)` answers the ids greater than `after`, ascending. Two calls at once may take the same
 * ids (both read the cursor first): callers' work must be safe to repeat, as the tick's is.
 */
export async function rotatingRead(
  db: Db,
  name: string,
  limit: number,
  page: (after: number, limit: number) => Promise<number[]>,
): Promise<number[]> {
  const after = await readCursor(db, name);
  const ids = await page(after, limit);
  if (ids.length < limit && after > 0) {
    ids.push(...(await page(0, limit - ids.length)).filter((id) => id <= after));
  }
  const last = ids.at(-1);
  if (last !== undefined && last !== after) {
    await saveCursor(db, name, last);
  }
  return ids;
}

import type { BatchItem } from "drizzle-orm/batch";
import type { Deps } from "../../events/deps";
import { isUniqueViolation } from "../../lib/db-errors";
import { ApiError, invalidField } from "../../lib/errors";
import { bumpPortal } from "./queries.portals";

/**
 * Runs a `.returning()` write to an article or category in one batch with the portal's
 * version bump, so public pages cached under the old version go with it. The slug's
 * unique index backs the service's pre-check: a race still ends in a 422, never a 500.
 */
export async function writeBumping<Row>(
  deps: Deps,
  portalId: number,
  write: BatchItem<"sqlite"> & PromiseLike<Row[]>,
): Promise<Row | undefined> {
  try {
    const [rows] = await deps.db.batch([write, bumpPortal(deps.db, portalId, deps.now())]);
    return (rows as Row[])[0];
  } catch (err) {
    throw isUniqueViolation(err) ? invalidField("slug", "has already been taken") : err;
  }
}

/** An insert's returned row: D1 always gives one back, so its absence is our fault. */
export function inserted<Row>(row: Row | undefined): Row {
  if (!row) {
    throw new ApiError("internal_error");
  }
  return row;
}

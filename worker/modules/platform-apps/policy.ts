import type { PermissibleType } from "../../db/schema";
import type { Deps } from "../../events/deps";
import { ApiError } from "../../lib/errors";
import { isPermitted } from "./queries";

/** A platform app reaches only what it created; everything else looks missing. */
export async function assertPermitted(
  deps: Deps,
  platformAppId: number,
  type: PermissibleType,
  id: number,
): Promise<void> {
  if (!(await isPermitted(deps.db, platformAppId, type, id))) {
    throw new ApiError("not_found");
  }
}

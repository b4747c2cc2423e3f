import type { Deps } from "../../events/deps";
import { pingDatabase } from "./queries";

export type ServiceStatus = "ok" | "failing";

/** "ok" when D1 answers a trivial query, "failing" when it throws or answers nothing. */
export async function dataServicesStatus(deps: Deps): Promise<ServiceStatus> {
  try {
    const row = await pingDatabase(deps.db);
    return row && Number(row.ok) === 1 ? "ok" : "failing";
  } catch (err) {
    deps.log.warn("health: D1 did not answer", { error: err });
    return "failing";
  }
}

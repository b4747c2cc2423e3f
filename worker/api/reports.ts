import type { AppEnv } from "../http/context";
import { createRouter } from "../http/router";

/** The v2 account API: reports (`/api/v2/accounts/{account_id}/...`). */
export const reportsApi = createRouter<AppEnv>();

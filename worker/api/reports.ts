import type { AccountEnv } from "../http/context";
import { accountScope } from "../http/middleware/account-scope";
import { authUser } from "../http/middleware/auth-user";
import { createRouter } from "../http/router";
import { reportAccountRoutes } from "../modules/reports/routes.account";
import { reportBreakdownRoutes } from "../modules/reports/routes.breakdowns.account";

const BASE = "/api/v2/accounts/:account_id";

/** The v2 account API: reports (`/api/v2/accounts/{account_id}/...`), as account members. */
export const reportsApi = createRouter<AccountEnv>();
reportsApi.use(`${BASE}/*`, authUser, accountScope);
reportsApi.route(BASE, reportAccountRoutes);
reportsApi.route(BASE, reportBreakdownRoutes);

import type { PlatformEnv } from "../http/context";
import { authPlatform } from "../http/middleware/auth-platform";
import { createRouter } from "../http/router";
import { accountPlatformRoutes } from "../modules/accounts/routes.platform";
import { agentBotPlatformRoutes } from "../modules/agent-bots/routes.platform";
import { accountUserPlatformRoutes } from "../modules/users/routes.account-users.platform";
import { userPlatformRoutes } from "../modules/users/routes.platform";

const BASE = "/platform/api/v1";

/** The platform API: provisioning by a platform app, limited to the records it created. */
export const platformApi = createRouter<PlatformEnv>();
platformApi.use(`${BASE}/*`, authPlatform);
platformApi.route(BASE, accountPlatformRoutes);
platformApi.route(BASE, userPlatformRoutes);
platformApi.route(BASE, accountUserPlatformRoutes);
platformApi.route(BASE, agentBotPlatformRoutes);

import type { PlatformEnv } from "../../http/context";
import { createRouter } from "../../http/router";

// TODO(#2): routes arrive with the module.
export const agentBotPlatformRoutes = createRouter<PlatformEnv>();

import type { AppEnv } from "../http/context";
import { createRouter } from "../http/router";
import { healthRoutes } from "../modules/health/routes.public";

/** Service-level endpoints Chatwoot answers without credentials: `GET /api`. */
export const serviceApi = createRouter<AppEnv>();
serviceApi.route("/", healthRoutes);

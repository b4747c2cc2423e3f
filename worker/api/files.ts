import type { AppEnv } from "../http/context";
import { createRouter } from "../http/router";
import { fileRoutes } from "../modules/files/routes.public";

/** Stored uploads (avatars, attachments): public URLs, no credentials, no CORS. */
export const filesApi = createRouter<AppEnv>();
filesApi.route("/", fileRoutes);

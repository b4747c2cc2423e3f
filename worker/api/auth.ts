import type { AppEnv } from "../http/context";
import { createRouter } from "../http/router";
import { authRoutes } from "../modules/auth/routes.auth";
import { authPageRoutes } from "../modules/auth/routes.pages";
import { profileRoutes } from "../modules/profile/routes.profile";

/**
 * Users' own side: signing in, passwords, invitations and the profile (`/auth/*`,
 * `/app/auth/*` pages, `/api/v1/profile`).
 */
export const authApi = createRouter<AppEnv>();
authApi.route("/", authRoutes);
authApi.route("/", authPageRoutes);
authApi.route("/", profileRoutes);

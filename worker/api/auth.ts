import type { AppEnv } from "../http/context";
import { createRouter } from "../http/router";

/**
 * Users' own side: signing in, passwords, invitations and the profile (`/auth/*`,
 * `/app/auth/*` pages, `/api/v1/profile`).
 */
export const authApi = createRouter<AppEnv>();

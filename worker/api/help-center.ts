import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../http/context";
import { createRouter } from "../http/router";
import { serveFeedback } from "../modules/help-center/routes.feedback.public";
import {
  helpCenterPublicRoutes,
  portalForHost,
  servePortal,
} from "../modules/help-center/routes.public";

/** The public help center: server-rendered pages at `/hc/{portal_slug}/…` (docs/help-center.md). */
export const helpCenterApi = createRouter<AppEnv>();
helpCenterApi.route("/", helpCenterPublicRoutes);

/** Paths that always belong to the service, whatever the Host: never looked up as a portal. */
const SERVICE_PATHS =
  /^\/(api|public|platform|auth|app|files|hc|docs|openapi\.json|widget|demo|frame|assets|locales)(\/|$|\.)/;

/** An article's "Was this helpful?" form posts here (the portal's only POST). */
const FEEDBACK_PATH = /^\/articles\/([^/]+)\/feedback$/;

/**
 * A request whose Host is a portal's custom domain is that portal's help center at `/`.
 * Checked only for GET/HEAD (and an article's feedback POST) outside the service's own paths,
 * so the API never pays for it.
 */
export const customDomains = createMiddleware<AppEnv>(async (c, next) => {
  const method = c.req.method;
  const path = new URL(c.req.url).pathname;
  const vote = method === "POST" ? FEEDBACK_PATH.exec(path) : null;
  if ((method !== "GET" && method !== "HEAD" && !vote) || SERVICE_PATHS.test(path)) {
    return next();
  }
  const portal = await portalForHost(c);
  if (!portal) {
    return next();
  }
  if (vote) {
    return serveFeedback(c, portal, "", vote[1] ?? "");
  }
  return servePortal(c, portal, "", path === "/" ? "" : path);
});

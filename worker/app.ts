import { bodyLimit } from "hono/body-limit";
import { cors } from "hono/cors";
import { accountApi } from "./api/account";
import { authApi } from "./api/auth";
import { filesApi } from "./api/files";
import { customDomains, helpCenterApi } from "./api/help-center";
import { platformApi } from "./api/platform";
import { publicApi } from "./api/public";
import { reportsApi } from "./api/reports";
import { serviceApi } from "./api/service";
import { appShell } from "./http/app-shell";
import { forgetAuthAfterWrites } from "./http/auth-cache";
import type { AppEnv } from "./http/context";
import { docsPage } from "./http/docs-page";
import { onError, onNotFound } from "./http/errors";
import { requestId } from "./http/middleware/request-id";
import { services } from "./http/middleware/services";
import { openApiConfig, securitySchemes } from "./http/openapi";
import { createRouter } from "./http/router";
import { ApiError } from "./lib/errors";
import { MAX_UPLOAD_BYTES } from "./modules/files/storage";
import { frontDoor } from "./modules/front-door/routes.public";

/** JSON bodies above this are refused; uploads get their own limit on their routes. */
export const JSON_BODY_LIMIT = 1024 * 1024;

export function createApp() {
  const app = createRouter<AppEnv>();
  app.use("*", requestId);
  app.use(
    "/public/*",
    cors({ origin: "*", maxAge: 86_400, exposeHeaders: ["Retry-After", "X-Request-Id"] }),
  );
  const jsonLimit = bodyLimit({
    maxSize: JSON_BODY_LIMIT,
    onError: () => {
      throw new ApiError("payload_too_large", "Request body is larger than 1 MiB");
    },
  });
  const uploadLimit = bodyLimit({
    maxSize: MAX_UPLOAD_BYTES + 64 * 1024,
    onError: () => {
      throw new ApiError("payload_too_large", "Upload is larger than 40 MB");
    },
  });
  app.use("*", (c, next) =>
    (c.req.header("content-type") ?? "").startsWith("multipart/form-data")
      ? uploadLimit(c, next)
      : jsonLimit(c, next),
  );
  app.use("*", services);
  app.use("*", forgetAuthAfterWrites);
  // Before every route: a portal's own domain is its help center, `/` included.
  app.use("*", customDomains);

  app.get("/", frontDoor);
  app.route("/", accountApi);
  app.route("/", reportsApi);
  app.route("/", authApi);
  app.route("/", platformApi);
  app.route("/", publicApi);
  app.route("/", filesApi);
  app.route("/", helpCenterApi);
  app.route("/", serviceApi);

  app.openAPIRegistry.registerComponent(
    "securitySchemes",
    "api_access_token",
    securitySchemes.api_access_token,
  );
  // The document only depends on the routes and the version: built once per isolate.
  let document: unknown;
  app.get("/openapi.json", (c) => {
    document ??= app.getOpenAPI31Document(openApiConfig(c.env.SERVICE_VERSION ?? "dev"));
    return c.json(document as Record<string, unknown>);
  });
  app.get("/docs", docsPage);
  // The agents' app: every path below /app is its one page (the mailed-link forms stay above).
  app.get("/app", appShell);
  app.get("/app/*", (c) => (c.req.path.startsWith("/app/auth/") ? c.notFound() : appShell(c)));

  app.notFound(onNotFound);
  app.onError(onError);
  return app;
}

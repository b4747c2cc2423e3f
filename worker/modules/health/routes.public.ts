import { createRoute } from "@hono/zod-openapi";
import type { AppEnv } from "../../http/context";
import { errorResponses } from "../../http/errors";
import { createRouter } from "../../http/router";
import { jsonContent } from "../../http/schemas/envelopes";
import { presentHealth } from "./presenter";
import { ServiceHealthSchema } from "./schema";
import { dataServicesStatus } from "./service";

// Chatwoot: GET /api (ApiController#index, no credentials). Chatwoot tools test a connection
// with it: n8n's Chatwoot credential test, for one.
const show = createRoute({
  method: "get",
  path: "/api",
  tags: ["Service"],
  summary: "The service's version and the health of its data and queue services",
  security: [],
  responses: {
    200: jsonContent(ServiceHealthSchema, "Version and service health (200 even when failing)"),
    404: errorResponses[404],
  },
});

export const healthRoutes = createRouter<AppEnv>().openapi(show, async (c) => {
  const data = await dataServicesStatus(c.var.deps);
  return c.json(presentHealth(c.env.SERVICE_VERSION ?? "dev", c.var.deps.now(), data), 200);
});

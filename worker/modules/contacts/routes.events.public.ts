import { createRoute, z } from "@hono/zod-openapi";
import { errorResponses } from "../../http/errors";
import type { PublicContactEnv } from "../../http/middleware/auth-contact";
import { rateLimitResponses } from "../../http/middleware/rate-limit";
import { createRouter } from "../../http/router";
import { jsonBody, jsonContent } from "../../http/schemas/envelopes";
import { ContactPublicParams, WidgetEventSchema } from "./schema.public";
import { recordWidgetEvent } from "./service.public";

// Chatwoot: POST /api/v1/widget/events (website_token + the visitor's cookie)
const trigger = createRoute({
  method: "post",
  path: "/contacts/{contact_identifier}/events",
  tags: ["Public API"],
  summary: "Tell the service the visitor opened the widget (webhook event webwidget_triggered)",
  request: { params: ContactPublicParams, body: jsonBody(WidgetEventSchema) },
  responses: {
    200: jsonContent(z.object({}).openapi("WidgetEventAccepted"), "Recorded"),
    ...errorResponses,
    ...rateLimitResponses,
  },
});

export const contactEventPublicRoutes = createRouter<PublicContactEnv>().openapi(
  trigger,
  async (c) => {
    const { deps, inbox, contactInbox } = c.var;
    await recordWidgetEvent(
      deps,
      inbox,
      contactInbox,
      c.req.valid("json"),
      c.req.header("user-agent"),
    );
    return c.json({}, 200);
  },
);

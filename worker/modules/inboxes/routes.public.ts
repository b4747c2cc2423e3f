import { createRoute } from "@hono/zod-openapi";
import { errorResponses } from "../../http/errors";
import type { PublicInboxEnv } from "../../http/middleware/auth-contact";
import { rateLimitResponses } from "../../http/middleware/rate-limit";
import { createRouter } from "../../http/router";
import { jsonContent } from "../../http/schemas/envelopes";
import { presentPublicInbox } from "./presenter.public";
import { publicInboxExtras } from "./queries.public";
import { InboxPublicParams, PublicInboxSchema } from "./schema.public";

// Chatwoot: GET /public/api/v1/inboxes/{inbox_identifier}
const show = createRoute({
  method: "get",
  path: "/",
  tags: ["Public API"],
  summary:
    "The inbox's public settings (name, hours, widget look, identity validation, agents, portal)",
  request: { params: InboxPublicParams },
  responses: {
    200: jsonContent(PublicInboxSchema, "The inbox"),
    ...errorResponses,
    ...rateLimitResponses,
  },
});

export const inboxPublicRoutes = createRouter<PublicInboxEnv>().openapi(show, async (c) => {
  const { inbox, deps } = c.var;
  return c.json(presentPublicInbox(inbox, await publicInboxExtras(deps.db, inbox)), 200);
});

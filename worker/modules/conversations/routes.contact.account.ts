import { createRoute } from "@hono/zod-openapi";
import type { AccountEnv } from "../../http/context";
import { errorResponses } from "../../http/errors";
import { requireMember } from "../../http/middleware/require-role";
import { createRouter } from "../../http/router";
import { jsonContent } from "../../http/schemas/envelopes";
import { accountParams, IdParam } from "../../http/schemas/ids";
import { scopeOf, viewOf } from "../../http/scope";
import { ConversationPayloadListSchema } from "./schema";
import { conversationsOfContact } from "./service.list";
import { presentConversations } from "./views";

const ContactParams = accountParams({
  contact_id: IdParam.openapi({
    param: { name: "contact_id", in: "path" },
    type: "integer",
    example: "1",
  }),
});

// Chatwoot: GET /api/v1/accounts/{a}/contacts/{id}/conversations
const list = createRoute({
  method: "get",
  path: "/contacts/{contact_id}/conversations",
  tags: ["Contacts"],
  summary: "The contact's conversations the caller can see (latest 20)",
  middleware: [requireMember()] as const,
  request: { params: ContactParams },
  responses: {
    200: jsonContent(ConversationPayloadListSchema, "The conversations"),
    ...errorResponses,
  },
});

export const conversationContactRoutes = createRouter<AccountEnv>().openapi(list, async (c) => {
  const rows = await conversationsOfContact(scopeOf(c), c.req.valid("param").contact_id);
  return c.json({ payload: await presentConversations(viewOf(c), rows) }, 200);
});

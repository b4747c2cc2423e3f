import { createRoute, z } from "@hono/zod-openapi";
import type { AccountEnv } from "../../http/context";
import { errorResponses } from "../../http/errors";
import { requireMember } from "../../http/middleware/require-role";
import { readAccessToken } from "../../http/middleware/token";
import { createRouter } from "../../http/router";
import { jsonBody, jsonContent } from "../../http/schemas/envelopes";
import { AccountParams, accountParams, IdParam } from "../../http/schemas/ids";
import { scopeOf } from "../../http/scope";
import { roomFor, roomIdFor } from "../conversation-room/stub";
import { loadConversationFor } from "../conversations/access";
import { setTyping } from "../conversations/service.typing";
import { holderOfActor, recheckCaller, ticketFor } from "./access";
import { LiveQuery, TypingSchema, upgradeResponse, wantsBatch } from "./schema";
import { agentIdentity, answerUpgrade, assertUpgrade, feedListener, forward } from "./service";
import { feedFor } from "./stubs";

const tags = ["Realtime"];
const ConversationParams = accountParams({ conversation_id: IdParam });

// Chatwoot: ActionCable RoomChannel (per conversation)
const room = createRoute({
  method: "get",
  path: "/conversations/{conversation_id}/live",
  tags,
  summary: "Open the conversation's live socket (agents and bots of its inbox)",
  middleware: [requireMember({ allowBots: true })] as const,
  request: { params: ConversationParams, query: LiveQuery },
  responses: {
    ...upgradeResponse,
    200: { description: "Never: the answer is 101" },
    ...errorResponses,
  },
});

// Chatwoot: ActionCable RoomChannel (account-wide events)
const feed = createRoute({
  method: "get",
  path: "/live",
  tags,
  summary: "Open the account's live feed of conversation changes (inboxes the agent may see)",
  middleware: [requireMember()] as const,
  request: { params: AccountParams },
  responses: {
    ...upgradeResponse,
    200: { description: "Never: the answer is 101" },
    ...errorResponses,
  },
});

// Chatwoot: POST /api/v1/accounts/{a}/conversations/{id}/toggle_typing_status
const typing = createRoute({
  method: "post",
  path: "/conversations/{conversation_id}/toggle_typing_status",
  tags,
  summary: "Show or clear the agent's typing indicator",
  middleware: [requireMember({ allowBots: true })] as const,
  request: { params: ConversationParams, body: jsonBody(TypingSchema) },
  responses: { 200: jsonContent(z.object({}), "Relayed"), ...errorResponses },
});

export const liveAccountRoutes = createRouter<AccountEnv>()
  .openapi(room, async (c) => {
    assertUpgrade(c.req.raw);
    const displayId = c.req.valid("param").conversation_id;
    const accountId = c.var.account.id;
    const found = await loadConversationFor(scopeOf(c), displayId);
    // Tracked first, then its access read again (modules/live/access.ts), so a revocation
    // made meanwhile reaches this socket.
    const holder = holderOfActor(c.var.actor);
    const roomId = roomIdFor(c.env, accountId, found.id).toString();
    const ticket = await ticketFor(c.env, accountId, holder, {
      id: roomId,
      inboxId: found.inboxId,
    });
    const fresh = await recheckCaller(c.var.deps.db, readAccessToken(c) ?? "", accountId, holder);
    const conversation = await loadConversationFor({ ...scopeOf(c), ...fresh }, displayId);
    const stub = roomFor(c.env, accountId, conversation.id);
    const query = c.req.valid("query");
    const me = { ...agentIdentity(fresh.actor, c.var.deps.origin), ...ticket };
    const res = await stub.fetch(
      forward(c.req.raw, me, { after: query.after, conversation, batch: wantsBatch(query) }),
    );
    return answerUpgrade(c.req.raw, res) as never;
  })
  .openapi(feed, async (c) => {
    assertUpgrade(c.req.raw);
    const accountId = c.var.account.id;
    const holder = holderOfActor(c.var.actor);
    const ticket = await ticketFor(c.env, accountId, holder, null);
    const fresh = await recheckCaller(c.var.deps.db, readAccessToken(c) ?? "", accountId, holder);
    const listener = {
      ...(await feedListener(c.var.deps.db, accountId, fresh.actor, fresh.role)),
      ...ticket,
    };
    const res = await feedFor(c.env, accountId).fetch(forward(c.req.raw, listener));
    return answerUpgrade(c.req.raw, res) as never;
  })
  .openapi(typing, async (c) => {
    const conversation = await loadConversationFor(
      scopeOf(c),
      c.req.valid("param").conversation_id,
    );
    const { typing_status, is_private } = c.req.valid("json");
    const me = agentIdentity(c.var.actor);
    await setTyping(scopeOf(c), conversation, {
      on: typing_status === "on",
      typer: { type: me.kind, id: me.id, name: me.name },
      isPrivate: is_private ?? false,
    });
    return c.json({}, 200);
  });

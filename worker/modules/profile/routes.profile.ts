import { createRoute } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { ActorEnv } from "../../http/context";
import { errorResponses } from "../../http/errors";
import { authUser } from "../../http/middleware/auth-user";
import { clientIp, rateLimitResponses } from "../../http/middleware/rate-limit";
import { createRouter } from "../../http/router";
import { jsonBody, jsonContent } from "../../http/schemas/envelopes";
import { ApiError } from "../../lib/errors";
import { presentUser } from "../users/presenter";
import { findUser } from "../users/queries";
import { UserSchema } from "../users/schema";
import { loadUserView } from "../users/service";
import { chooseOwnPresence } from "./availability";
import { AutoOfflineUpdateSchema, AvailabilityUpdateSchema, ProfileUpdateSchema } from "./schema";
import { resetAccessToken, updateProfile } from "./service";

const tags = ["Profile"];

// Chatwoot: GET /api/v1/profile
const show = createRoute({
  method: "get",
  path: "/api/v1/profile",
  tags,
  summary: "The signed-in user's own record, with its access token and accounts",
  middleware: [authUser] as const,
  responses: { 200: jsonContent(UserSchema, "The user"), ...errorResponses },
});

// Chatwoot: PUT /api/v1/profile
const update = createRoute({
  method: "put",
  path: "/api/v1/profile",
  tags,
  summary: "Change one's own name, display name, signature, settings, email or password",
  middleware: [authUser] as const,
  request: { body: jsonBody(ProfileUpdateSchema) },
  responses: {
    200: jsonContent(UserSchema, "The user"),
    ...errorResponses,
    ...rateLimitResponses,
  },
});

// Chatwoot: POST /api/v1/profile/reset_access_token
const resetToken = createRoute({
  method: "post",
  path: "/api/v1/profile/reset_access_token",
  tags,
  summary: "Replace one's access token; the old one stops working",
  middleware: [authUser] as const,
  responses: { 200: jsonContent(UserSchema, "The user, with the new token"), ...errorResponses },
});

// Chatwoot: POST /api/v1/profile/availability
const availability = createRoute({
  method: "post",
  path: "/api/v1/profile/availability",
  tags,
  summary: "Choose one's own availability (online, busy, offline) in one of one's accounts",
  description:
    "Busy and offline stand whatever the agent's sockets; online shows online while a socket of theirs is open (unless `auto_offline` is off). A change of what others see sends `presence.update` on the account feed.",
  middleware: [authUser] as const,
  request: { body: jsonBody(AvailabilityUpdateSchema) },
  responses: { 200: jsonContent(UserSchema, "The user"), ...errorResponses },
});

// Chatwoot: POST /api/v1/profile/auto_offline
const autoOffline = createRoute({
  method: "post",
  path: "/api/v1/profile/auto_offline",
  tags,
  summary: "Choose whether one shows offline without an open socket, in one of one's accounts",
  middleware: [authUser] as const,
  request: { body: jsonBody(AutoOfflineUpdateSchema) },
  responses: { 200: jsonContent(UserSchema, "The user"), ...errorResponses },
});

/** The profile is a person's: agent bots have none (Chatwoot answers them 401 too). */
async function me(c: Context<ActorEnv>) {
  const { actor } = c.var;
  if (actor.kind !== "user") {
    throw new ApiError("not_authorized_for_bots");
  }
  // The cached actor may be seconds old; the profile shows the row as it is now.
  const user = await findUser(c.var.deps.db, actor.user.id);
  if (!user) {
    throw new ApiError("invalid_token");
  }
  return user;
}

const profileOf = async (c: Context<ActorEnv>, user: Awaited<ReturnType<typeof me>>) =>
  presentUser(await loadUserView(c.var.deps, user));

export const profileRoutes = createRouter<ActorEnv>()
  .openapi(show, async (c) => c.json(await profileOf(c, await me(c)), 200))
  .openapi(update, async (c) => {
    const user = await updateProfile(c.var.deps, await me(c), c.req.valid("json"), {
      env: c.env,
      ip: clientIp(c),
    });
    return c.json(await profileOf(c, user), 200);
  })
  .openapi(availability, async (c) => {
    const user = await me(c);
    const input = c.req.valid("json");
    await chooseOwnPresence(c.var.deps, c.env, user, input.account_id, {
      availability: input.availability,
    });
    return c.json(await profileOf(c, user), 200);
  })
  .openapi(autoOffline, async (c) => {
    const user = await me(c);
    const input = c.req.valid("json");
    await chooseOwnPresence(c.var.deps, c.env, user, input.account_id, {
      autoOffline: input.auto_offline,
    });
    return c.json(await profileOf(c, user), 200);
  })
  .openapi(resetToken, async (c) => {
    const user = await me(c);
    await resetAccessToken(c.var.deps, user);
    return c.json(await profileOf(c, user), 200);
  });

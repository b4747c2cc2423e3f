import { createMiddleware } from "hono/factory";
import { ApiError } from "../../lib/errors";
import { performerOf } from "../../modules/access-tokens/service";
import { authCache } from "../auth-cache";
import type { ActorEnv } from "../context";
import { readAccessToken } from "./token";

/** Account API and profile: a user or agent-bot token; platform tokens are not accepted here. */
export const authUser = createMiddleware<ActorEnv>(async (c, next) => {
  const token = readAccessToken(c);
  if (!token) {
    throw new ApiError("unauthorized");
  }
  const actor = await authCache.actor(c.var.deps.db, token);
  if (!actor || actor.kind === "platform") {
    throw new ApiError("invalid_token");
  }
  c.set("actor", actor);
  c.set("deps", { ...c.var.deps, performedBy: performerOf(actor) });
  await next();
});

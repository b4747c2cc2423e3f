import { createMiddleware } from "hono/factory";
import { ApiError } from "../../lib/errors";
import { authCache } from "../auth-cache";
import type { PlatformEnv } from "../context";
import { readAccessToken } from "./token";

export const authPlatform = createMiddleware<PlatformEnv>(async (c, next) => {
  const token = readAccessToken(c);
  if (!token) {
    throw new ApiError("unauthorized");
  }
  const actor = await authCache.actor(c.var.deps.db, token);
  if (actor?.kind !== "platform") {
    throw new ApiError("invalid_token", "Invalid access_token");
  }
  c.set("platformAppId", actor.platformAppId);
  await next();
});

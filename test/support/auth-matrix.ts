import { describe, it } from "vitest";
import { createPlatformApp, createWorld } from "./factories";
import { api, expectError } from "./http";

type World = Awaited<ReturnType<typeof createWorld>>;

export type AuthMatrixSpec = {
  method: string;
  /** Builds the path for a world (the target records belong to `world.account`). */
  path: (world: World) => string | Promise<string>;
  body?: unknown;
  /** Administrator-only: agents get 403. */
  adminOnly?: boolean;
  /** Bots may call it (Chatwoot's bot whitelist). */
  allowBots?: boolean;
};

/**
 * The shared security suite every account-API resource runs (Unkey's idea): no token 401,
 * bad token 401, platform token 401, another account's administrator 404, agent 403 on
 * admin-only routes, bot 401 off the bot whitelist.
 */
export function describeAuthMatrix(name: string, spec: AuthMatrixSpec) {
  describe(`auth matrix: ${name}`, () => {
    const call = (path: string, token?: string) =>
      api(path, {
        method: spec.method,
        token,
        body: spec.body ?? (spec.method === "GET" || spec.method === "DELETE" ? undefined : {}),
      });

    it("answers 401 without a token", async () => {
      const world = await createWorld();
      expectError(await call(await spec.path(world)), 401);
    });

    it("answers 401 with an unknown token", async () => {
      const world = await createWorld();
      expectError(await call(await spec.path(world), "not-a-real-token"), 401, "invalid_token");
    });

    it("answers 401 with a platform token", async () => {
      const world = await createWorld();
      const app = await createPlatformApp();
      expectError(await call(await spec.path(world), app.token), 401, "invalid_token");
    });

    it("answers 404 to another account's administrator", async () => {
      const world = await createWorld();
      const other = await createWorld();
      expectError(await call(await spec.path(world), other.admin.token), 404, "not_found");
    });

    if (spec.adminOnly) {
      it("answers 403 to an agent", async () => {
        const world = await createWorld();
        expectError(await call(await spec.path(world), world.agent.token), 403, "forbidden");
      });
    }

    if (!spec.allowBots) {
      it("answers 401 to an agent bot", async () => {
        const world = await createWorld();
        expectError(
          await call(await spec.path(world), world.bot.token),
          401,
          "not_authorized_for_bots",
        );
      });
    }
  });
}

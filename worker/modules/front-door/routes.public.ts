import type { Context } from "hono";
import type { AppEnv } from "../../http/context";
import { demoFacts } from "../../lib/demo";
import { FRONT_DOOR_CSP, frontDoorPage } from "./page";
import { demoPortals } from "./queries";

/** Browsers ask for HTML first; API clients (curl, SDKs) send `*\/*` or JSON and keep the JSON. */
const wantsHtml = (accept: string | undefined) => /\btext\/html\b/.test(accept ?? "");

/** GET /: a small page for people, the service's facts as JSON for programs. */
export async function frontDoor(c: Context<AppEnv>) {
  const version = c.env.SERVICE_VERSION ?? "dev";
  c.header("Vary", "Accept");
  if (!wantsHtml(c.req.header("accept"))) {
    return c.json({
      name: "parley",
      version: c.env.SERVICE_VERSION ?? null,
      docs: "/docs",
      openapi: "/openapi.json",
      app: "/app",
    });
  }
  const demo = demoFacts(c.env.PARLEY_DEMO, c.req.url);
  const portals = demo ? await demoPortals(c.var.deps.db, Number(demo.account)) : [];
  const body = await frontDoorPage({ version, base: new URL(c.req.url).origin, demo, portals });
  return c.html(body, 200, {
    "Content-Security-Policy": FRONT_DOOR_CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
  });
}

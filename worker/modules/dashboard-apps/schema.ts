import { z } from "@hono/zod-openapi";
import { unwrapped } from "../../http/schemas/envelopes";
import { accountParams, IdParam } from "../../http/schemas/ids";

export const DashboardAppParams = accountParams({
  id: IdParam.openapi({ param: { name: "id", in: "path" }, type: "integer", example: "1" }),
});

/** Dashboard apps one account may hold (Chatwoot sets none; each is a tab of every agent's). */
export const MAX_DASHBOARD_APPS = 20;
/** Frames of one app (Chatwoot's dashboard shows them stacked in its tab). */
export const MAX_FRAMES = 5;
export const MAX_FRAME_URL = 2048;

/**
 * Hosts an http:// frame may be on: a developer's own machine (Chatwoot's local-dev allowance),
 * as the agents' app's CSP names them (worker/http/app-shell.ts; a CSP cannot name [::1]).
 */
const LOOPBACK = new Set(["localhost", "127.0.0.1"]);

/**
 * Why a frame URL is refused, or null. https only, or http on the loopback for development: the
 * agents' app is served over https and frames it with its conversations' context. No user or
 * password in the URL: it would be shown to every agent.
 */
export function frameUrlProblem(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "is not a URL";
  }
  const secure = url.protocol === "https:";
  const local = url.protocol === "http:" && LOOPBACK.has(url.hostname);
  if (!secure && !local) {
    return "must be an https URL (http only on localhost, for development)";
  }
  if (url.username || url.password) {
    return "must not carry a user name or password";
  }
  return null;
}

export const FrameSchema = z
  .object({
    type: z.literal("frame").openapi({ description: "The only kind Chatwoot has" }),
    url: z
      .string()
      .trim()
      .min(1, { abort: true })
      .max(MAX_FRAME_URL, { abort: true })
      .superRefine((url, ctx) => {
        const problem = frameUrlProblem(url);
        if (problem) {
          ctx.addIssue({ code: "custom", message: problem });
        }
      })
      .openapi({ example: "https://crm.example.com/chatwoot" }),
  })
  .openapi("DashboardAppFrame");

const fields = {
  title: z.string().trim().min(1).max(255).openapi({ example: "Customer orders" }),
  content: z
    .array(FrameSchema)
    .min(1)
    .max(MAX_FRAMES)
    .openapi({ description: "The frames shown in the app's tab, in order" }),
};

export const DashboardAppCreateSchema = unwrapped(
  "dashboard_app",
  z.object(fields).openapi("DashboardAppCreate"),
);
export const DashboardAppUpdateSchema = unwrapped(
  "dashboard_app",
  z
    .object({ title: fields.title.optional(), content: fields.content.optional() })
    .openapi("DashboardAppUpdate"),
);

export type DashboardAppCreate = z.infer<typeof DashboardAppCreateSchema>;
export type DashboardAppUpdate = z.infer<typeof DashboardAppUpdateSchema>;

export const DashboardAppSchema = z
  .object({
    id: z.number().int(),
    title: z.string(),
    content: z.array(
      z.object({ type: z.literal("frame"), url: z.string() }).openapi("DashboardAppFrameRecord"),
    ),
    created_at: z.string().openapi({ format: "date-time" }),
  })
  .openapi("DashboardApp");

export const DashboardAppListSchema = z.array(DashboardAppSchema).openapi("DashboardAppList");

import { createRoute, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../http/context";
import { errorResponses } from "../../http/errors";
import { createRouter } from "../../http/router";
import { ApiError } from "../../lib/errors";
import { fileHeaders } from "./serving";

const FileParams = z.object({
  account_id: z
    .string()
    .regex(/^\d{1,15}$/)
    .openapi({ param: { name: "account_id", in: "path" } }),
  folder: z
    .string()
    .regex(/^[a-z_-]{1,40}$/)
    .openapi({ param: { name: "folder", in: "path" } }),
  name: z
    .string()
    .regex(/^[0-9a-f-]{36}(\.[a-z0-9]{1,10})?$/)
    .openapi({ param: { name: "name", in: "path" }, example: "0b6c2f5e-….png" }),
});

// Chatwoot: GET /rails/active_storage/blobs/... (stored uploads)
const show = createRoute({
  method: "get",
  path: "/files/{account_id}/{folder}/{name}",
  tags: ["Files"],
  summary: "Download a stored upload (avatars, attachments)",
  request: { params: FileParams },
  responses: {
    200: { description: "The file", content: { "application/octet-stream": { schema: z.any() } } },
    404: errorResponses[404],
  },
});

export const fileRoutes = createRouter<AppEnv>().openapi(show, async (c) => {
  const { account_id, folder, name } = c.req.valid("param");
  const object = await c.env.FILES.get(`${account_id}/${folder}/${name}`);
  if (!object) {
    throw new ApiError("not_found");
  }
  const headers = fileHeaders(object.httpMetadata, name);
  headers.set("etag", object.httpEtag);
  return new Response(object.body, { headers }) as never;
});

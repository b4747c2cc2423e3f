import { createRoute, type z } from "@hono/zod-openapi";
import type { PlatformEnv } from "../../http/context";
import { errorResponses } from "../../http/errors";
import { createRouter } from "../../http/router";
import { DeletedSchema, jsonBody, jsonContent } from "../../http/schemas/envelopes";
import { idParams } from "../../http/schemas/ids";
import { SsoLinkSchema } from "../auth/schema";
import { ssoLoginUrl } from "../auth/service";
import { presentUser } from "./presenter";
import { UserCreateSchema, UserSchema, UserUpdateSchema } from "./schema";
import { createUser, deleteUser, findPermittedUser, loadUserView, updateUser } from "./service";

const tags = ["Platform: users"];

// Chatwoot: POST /platform/api/v1/users
const create = createRoute({
  method: "post",
  path: "/users",
  tags,
  summary: "Create a user",
  description:
    "Creates a user with an access token. If a user with this email exists and the app manages " +
    "it, that user is updated and returned; another app's user answers 422.",
  request: { body: jsonBody(UserCreateSchema) },
  responses: { 200: jsonContent(UserSchema, "The user"), ...errorResponses },
});

// Chatwoot: GET /platform/api/v1/users/{id}
const show = createRoute({
  method: "get",
  path: "/users/{id}",
  tags,
  summary: "Get a user (E7)",
  request: { params: idParams },
  responses: { 200: jsonContent(UserSchema, "The user"), ...errorResponses },
});

// Chatwoot: PATCH /platform/api/v1/users/{id}
const update = createRoute({
  method: "patch",
  path: "/users/{id}",
  tags,
  summary: "Update a user",
  request: { params: idParams, body: jsonBody(UserUpdateSchema) },
  responses: { 200: jsonContent(UserSchema, "The user"), ...errorResponses },
});

// Chatwoot: DELETE /platform/api/v1/users/{id}
const remove = createRoute({
  method: "delete",
  path: "/users/{id}",
  tags,
  summary: "Delete a user, with their memberships and access token",
  request: { params: idParams },
  responses: { 200: jsonContent(DeletedSchema, "Deleted"), ...errorResponses },
});

// Chatwoot: GET /platform/api/v1/users/{id}/login
const login = createRoute({
  method: "get",
  path: "/users/{id}/login",
  tags,
  summary: "A one-time sign-in link for the user",
  description:
    "`{url}` on PUBLIC_URL that signs the user in to the agents' app: single use, within 5 " +
    "minutes, a new link voiding the previous one. Only for users the app created or manages " +
    "(others answer 404). The token rides in the URL fragment; docs/platform.md says how a " +
    "client exchanges it.",
  request: { params: idParams },
  responses: { 200: jsonContent(SsoLinkSchema, "The sign-in URL"), ...errorResponses },
});

export const userPlatformRoutes = createRouter<PlatformEnv>()
  .openapi(create, async (c) => {
    const view = await createUser(c.var.deps, c.var.platformAppId, c.req.valid("json"));
    return c.json(presentUser(view), 200);
  })
  .openapi(show, async (c) => {
    const user = await findPermittedUser(c.var.deps, c.var.platformAppId, c.req.valid("param").id);
    return c.json(presentUser(await loadUserView(c.var.deps, user)), 200);
  })
  .openapi(update, async (c) => {
    const user = await findPermittedUser(c.var.deps, c.var.platformAppId, c.req.valid("param").id);
    const view = await updateUser(c.var.deps, user, c.req.valid("json"));
    return c.json(presentUser(view), 200);
  })
  .openapi(remove, async (c) => {
    const user = await findPermittedUser(c.var.deps, c.var.platformAppId, c.req.valid("param").id);
    await deleteUser(c.var.deps, user);
    return c.json({} as z.infer<typeof DeletedSchema>, 200);
  })
  .openapi(login, async (c) => {
    const user = await findPermittedUser(c.var.deps, c.var.platformAppId, c.req.valid("param").id);
    return c.json({ url: await ssoLoginUrl(c.var.deps, user.id) }, 200);
  });

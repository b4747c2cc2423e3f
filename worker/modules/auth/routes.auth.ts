import { createRoute } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../../http/context";
import { errorResponses } from "../../http/errors";
import { clientIp, enforceLimit, rateLimitResponses } from "../../http/middleware/rate-limit";
import { createRouter } from "../../http/router";
import { jsonBody, jsonContent } from "../../http/schemas/envelopes";
import { presentUser } from "../users/presenter";
import { loadUserView } from "../users/service";
import {
  AuthMessageSchema,
  PasswordResetRequestSchema,
  PasswordResetSchema,
  SignInResultSchema,
  SignInSchema,
  SsoSignInSchema,
} from "./schema";
import { requestPasswordReset, setPasswordWithLink, signIn, signInWithSsoLink } from "./service";
import { throttled } from "./throttle";

const tags = ["Auth"];

/** Every sign-in flow counts against the caller's address, and against the email asked about. */
export async function limit(c: Context<AppEnv>, email?: string) {
  await enforceLimit(c.env, "AUTH_IP_LIMITER", `ip:${clientIp(c)}`, "from this address");
  if (email !== undefined) {
    await enforceLimit(c.env, "AUTH_EMAIL_LIMITER", `email:${email}`, "for this email");
  }
}

/** Work that outlives the answer; awaited instead where there is no execution context. */
export async function afterResponse(c: Context<AppEnv>, work: Promise<void>) {
  try {
    c.executionCtx.waitUntil(work);
  } catch {
    // app.request() without an execution context (tests of the app alone).
    await work;
  }
}

// Chatwoot (devise_token_auth): POST /auth/sign_in
const signInRoute = createRoute({
  method: "post",
  path: "/auth/sign_in",
  tags,
  security: [],
  summary: "Sign in with email and password",
  description:
    "Answers the user with its `access_token` (the `api_access_token` of every other call). " +
    "Any wrong email or password is the same 401; 30 attempts a minute per address, 10 per " +
    "email from one address, and an email failing from several addresses refuses the " +
    "addresses that failed it (docs/auth.md): failing someone's email never locks them out.",
  request: { body: jsonBody(SignInSchema) },
  responses: {
    200: jsonContent(SignInResultSchema, "The signed-in user"),
    ...rateLimitResponses,
    ...errorResponses,
  },
});

// Chatwoot (devise_token_auth): POST /auth/password
const requestResetRoute = createRoute({
  method: "post",
  path: "/auth/password",
  tags,
  security: [],
  summary: "Mail a password link",
  description:
    "Mails a one-time link to choose a new password when the email has a user; the answer is " +
    "the same whether it has one or not.",
  request: { body: jsonBody(PasswordResetRequestSchema) },
  responses: {
    200: jsonContent(AuthMessageSchema, "Accepted"),
    ...rateLimitResponses,
    ...errorResponses,
  },
});

// Chatwoot (devise_token_auth): PUT /auth/password
const resetRoute = createRoute({
  method: "put",
  path: "/auth/password",
  tags,
  security: [],
  summary: "Choose a new password with a mailed link's token",
  request: { body: jsonBody(PasswordResetSchema) },
  responses: {
    200: jsonContent(AuthMessageSchema, "Password set"),
    ...rateLimitResponses,
    ...errorResponses,
  },
});

// Chatwoot signs in with `sso_auth_token` in place of a password; Parley takes it alone.
const ssoRoute = createRoute({
  method: "post",
  path: "/auth/sso",
  tags,
  security: [],
  summary: "Sign in with a platform's one-time link",
  description:
    "Exchanges the `sso_auth_token` of a link from `GET /platform/api/v1/users/{id}/login` " +
    "(its URL fragment) for the user, as `/auth/sign_in` answers. The token works once, within " +
    "5 minutes; otherwise 422. See docs/platform.md.",
  request: { body: jsonBody(SsoSignInSchema) },
  responses: {
    200: jsonContent(SignInResultSchema, "The signed-in user"),
    ...rateLimitResponses,
    ...errorResponses,
  },
});

export const RESET_REQUESTED =
  "If that email has an account, a link to choose a new password is on its way.";

export const authRoutes = createRouter<AppEnv>()
  .openapi(signInRoute, async (c) => {
    const { email, password } = c.req.valid("json");
    const user = await throttled(c.var.deps, c.env, { email, ip: clientIp(c) }, () =>
      signIn(c.var.deps, email, password),
    );
    return c.json({ data: presentUser(await loadUserView(c.var.deps, user)) }, 200);
  })
  .openapi(requestResetRoute, async (c) => {
    const { email } = c.req.valid("json");
    await limit(c, email);
    // Known and unknown emails alike: nothing is looked up before the answer, and the lookup,
    // the link and the mail happen after it, so neither the answer nor its timing tells.
    await afterResponse(c, requestPasswordReset(c.var.deps, email));
    return c.json({ success: true as const, message: RESET_REQUESTED }, 200);
  })
  .openapi(resetRoute, async (c) => {
    await limit(c);
    const { reset_password_token, password } = c.req.valid("json");
    await setPasswordWithLink(c.var.deps, reset_password_token, password);
    return c.json({ success: true as const, message: "Your password has been set." }, 200);
  })
  .openapi(ssoRoute, async (c) => {
    await limit(c);
    const user = await signInWithSsoLink(c.var.deps, c.req.valid("json").sso_auth_token);
    return c.json({ data: presentUser(await loadUserView(c.var.deps, user)) }, 200);
  });

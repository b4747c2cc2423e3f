import type { Context } from "hono";
import type { AppEnv } from "../../http/context";
import { createRouter } from "../../http/router";
import { ApiError } from "../../lib/errors";
import { findLink } from "./links";
import {
  invalidLinkPage,
  invitationPage,
  joinedPage,
  PAGE_HEADERS,
  passwordPage,
  passwordSetPage,
} from "./pages";
import { limit } from "./routes.auth";
import { InvitationFormSchema, NewPasswordSchema, PasswordFormSchema } from "./schema";
import { acceptInvitation, invitationFor, setPasswordWithLink } from "./service";

type Page = Awaited<ReturnType<typeof passwordPage>>;

const show = (c: Context<AppEnv>, body: Page, status: 200 | 404 | 422 = 200) =>
  c.html(body, status, PAGE_HEADERS);

/** A used, expired or made-up link gets the same page, whatever was wrong with it. */
async function orInvalidLink(c: Context<AppEnv>, work: () => Promise<Response>) {
  try {
    return await work();
  } catch (err) {
    if (err instanceof ApiError && err.code === "validation_failed") {
      return show(c, await invalidLinkPage(), 404);
    }
    throw err;
  }
}

/** The page's own check of a chosen password, with the API's rule. */
function passwordProblem(password: string | undefined, confirmation: string | undefined) {
  if (!NewPasswordSchema.safeParse(password ?? "").success) {
    return "The password must be 8 to 128 characters long.";
  }
  return confirmation === password ? null : "The two passwords differ.";
}

const form = async (c: Context<AppEnv>) => {
  const body = await c.req.parseBody().catch(() => ({}));
  return Object.fromEntries(Object.entries(body).filter(([, v]) => typeof v === "string"));
};

/**
 * The pages mailed links open (Chatwoot's paths). Opening a link changes nothing (mail
 * scanners open links too); only the form's POST uses it.
 */
export const authPageRoutes = createRouter<AppEnv>()
  .get("/app/auth/password/edit", async (c) => {
    const token = c.req.query("reset_password_token") ?? "";
    const link = await findLink(c.var.deps, "set_password", token);
    return link ? show(c, await passwordPage(token)) : show(c, await invalidLinkPage(), 404);
  })
  .post("/app/auth/password/edit", async (c) => {
    await limit(c);
    const fields = PasswordFormSchema.safeParse(await form(c));
    const input = fields.success ? fields.data : {};
    const token = input.reset_password_token ?? "";
    const problem = passwordProblem(input.password, input.password_confirmation);
    if (problem) {
      const link = await findLink(c.var.deps, "set_password", token);
      return link
        ? show(c, await passwordPage(token, problem), 422)
        : show(c, await invalidLinkPage(), 404);
    }
    return orInvalidLink(c, async () => {
      const user = await setPasswordWithLink(c.var.deps, token, input.password ?? "");
      return show(c, await passwordSetPage(user.email));
    });
  })
  .get("/app/auth/invitation", (c) =>
    orInvalidLink(c, async () => {
      const token = c.req.query("invitation_token") ?? "";
      const { accountName, role } = await invitationFor(c.var.deps, token);
      return show(c, await invitationPage(token, accountName, role));
    }),
  )
  .post("/app/auth/invitation", async (c) => {
    await limit(c);
    const fields = InvitationFormSchema.safeParse(await form(c));
    return orInvalidLink(c, async () => {
      const token = fields.success ? fields.data.invitation_token : undefined;
      const { accountName } = await acceptInvitation(c.var.deps, token);
      return show(c, await joinedPage(accountName));
    });
  });

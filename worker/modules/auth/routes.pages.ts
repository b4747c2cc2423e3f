import type { Context } from "hono";
import type { AppEnv } from "../../http/context";
import { createRouter } from "../../http/router";
import { ApiError } from "../../lib/errors";
import { findLink } from "./links";
import { linkFacts } from "./page-facts";
import {
  invalidLinkPage,
  invitationPage,
  joinedPage,
  linkSentPage,
  newLinkPage,
  PAGE_HEADERS,
  passwordPage,
  passwordSetPage,
} from "./pages";
import { afterResponse, limit, RESET_REQUESTED } from "./routes.auth";
import {
  InvitationFormSchema,
  NewLinkFormSchema,
  NewPasswordSchema,
  PasswordFormSchema,
} from "./schema";
import {
  acceptInvitation,
  invitationFor,
  requestPasswordReset,
  setPasswordWithLink,
} from "./service";

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
    return link
      ? show(c, await passwordPage(token, await linkFacts(c.var.deps, link)))
      : show(c, await invalidLinkPage(), 404);
  })
  .post("/app/auth/password/edit", async (c) => {
    await limit(c);
    const fields = PasswordFormSchema.safeParse(await form(c));
    const input = fields.success ? fields.data : {};
    const token = input.reset_password_token ?? "";
    const link = await findLink(c.var.deps, "set_password", token);
    if (!link) {
      return show(c, await invalidLinkPage(), 404);
    }
    const facts = await linkFacts(c.var.deps, link);
    const problem = passwordProblem(input.password, input.password_confirmation);
    if (problem) {
      return show(c, await passwordPage(token, facts, problem), 422);
    }
    return orInvalidLink(c, async () => {
      const user = await setPasswordWithLink(c.var.deps, token, input.password ?? "");
      return show(c, await passwordSetPage(user.email, facts.account));
    });
  })
  .get("/app/auth/invitation", (c) =>
    orInvalidLink(c, async () => {
      const token = c.req.query("invitation_token") ?? "";
      const { accountName, role } = await invitationFor(c.var.deps, token);
      const link = await findLink(c.var.deps, "join_account", token);
      const facts = link ? await linkFacts(c.var.deps, link) : { email: null, account: null };
      return show(c, await invitationPage(token, accountName, role, facts));
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
  })
  // "Send me a new link": the page form of POST /auth/password, with the same answer for known
  // and unknown emails, and the lookup and mail after it.
  .get("/app/auth/password/new", async (c) => show(c, await newLinkPage()))
  .post("/app/auth/password/new", async (c) => {
    const fields = NewLinkFormSchema.safeParse(await form(c));
    if (!fields.success) {
      await limit(c);
      return show(c, await newLinkPage("Enter the email address you sign in with."), 422);
    }
    await limit(c, fields.data.email);
    await afterResponse(c, requestPasswordReset(c.var.deps, fields.data.email));
    return show(c, await linkSentPage(RESET_REQUESTED));
  });

import type { Context } from "hono";
import type { PortalRow } from "../../db/schema";
import type { AppEnv } from "../../http/context";
import { clientIp, enforceLimit } from "../../http/middleware/rate-limit";
import { ApiError } from "../../lib/errors";
import { articlePath, portalBaseUrl } from "./presenter";
import { esc } from "./render/escape";
import { type FeedbackState, feedbackInner } from "./render/feedback";
import { page } from "./render/layout";
import { stringsFor } from "./render/strings";
import { newVisitorCookie, parseVote, recordVote, votableArticle } from "./service.feedback";
import { siteFor } from "./service.public";

/** A vote is a few words: anything bigger is not one. */
const MAX_BODY = 4096;
const COOKIE = "parley_hc";
const COOKIE_VALUE = /^[A-Za-z0-9_-]{22,64}$/;

const wantsJson = (c: Context<AppEnv>) => /application\/json/i.test(c.req.header("accept") ?? "");

/**
 * Only the help center's own pages may vote (CSRF): the browser's `Origin` must be this
 * origin; without one, `Sec-Fetch-Site` must say same-origin. The cookie is SameSite=Lax too.
 */
function sameOrigin(c: Context<AppEnv>, origin: string): boolean {
  const from = c.req.header("origin");
  return from ? from === origin : c.req.header("sec-fetch-site") === "same-origin";
}

function visitorCookie(c: Context<AppEnv>): string | null {
  for (const part of (c.req.header("cookie") ?? "").split(";")) {
    const [name, value] = part.trim().split("=");
    if (name === COOKIE && value && COOKIE_VALUE.test(value)) {
      return value;
    }
  }
  return null;
}

/**
 * `POST {portal}/articles/{slug}/feedback`: "Was this helpful?" from the article page. A form
 * POST answers 303 back to the article in its next state; with `Accept: application/json`
 * (the page's script) it answers that state's markup. Errors are the one JSON error body to
 * the script, a small page to a form.
 */
export async function serveFeedback(
  c: Context<AppEnv>,
  portal: PortalRow | undefined,
  prefix: string,
  slugPart: string,
): Promise<Response> {
  const url = new URL(c.req.url);
  const json = wantsJson(c);
  let locale = portal?.defaultLocale ?? "en";
  let back = `${prefix}/${encodeURIComponent(locale)}`;
  try {
    if (!portal || portal.archived) {
      throw new ApiError("not_found");
    }
    if (!sameOrigin(c, url.origin)) {
      throw new ApiError("forbidden", "Votes come from the help center's own pages");
    }
    if (!/^application\/x-www-form-urlencoded\b/i.test(c.req.header("content-type") ?? "")) {
      throw new ApiError("unsupported_media_type", "Send the form (x-www-form-urlencoded)");
    }
    if (Number(c.req.header("content-length") ?? 0) > MAX_BODY) {
      throw new ApiError("payload_too_large", `A vote is at most ${MAX_BODY} bytes`);
    }
    const raw = await c.req.text();
    if (raw.length > MAX_BODY) {
      throw new ApiError("payload_too_large", `A vote is at most ${MAX_BODY} bytes`);
    }
    let slug: string;
    try {
      slug = decodeURIComponent(slugPart);
    } catch {
      throw new ApiError("not_found");
    }
    const article = await votableArticle(c.var.deps, portal, slug);
    locale = article.locale;
    back = prefix + articlePath(article.slug);
    const vote = parseVote(new URLSearchParams(raw));
    await enforceLimit(c.env, "HELP_FEEDBACK_LIMITER", `ip:${clientIp(c)}`, "from this address");
    const known = visitorCookie(c);
    const cookie = known ?? newVisitorCookie();
    await recordVote(c.var.deps, article.id, cookie, vote);
    const state: FeedbackState = vote.comment ? "sent" : vote.helpful ? "yes" : "no";
    const headers: Record<string, string> = { "cache-control": "no-store" };
    if (!known) {
      headers["set-cookie"] =
        `${COOKIE}=${cookie}; Path=${prefix || "/"}; Max-Age=31536000; HttpOnly; SameSite=Lax${url.protocol === "https:" ? "; Secure" : ""}`;
    }
    if (json) {
      const html = feedbackInner(locale, `${back}/feedback`, state);
      return c.json({ helpful: vote.helpful, comment: vote.comment !== null, html }, 200, headers);
    }
    return c.body(null, 303, { ...headers, location: `${back}?feedback=${state}#feedback` });
  } catch (err) {
    if (json || !(err instanceof ApiError) || !portal) {
      throw err;
    }
    return errorPage(c, portal, prefix, locale, back, err);
  }
}

/** What a form (no script) sees when its vote is refused: why, and the way back. */
function errorPage(
  c: Context<AppEnv>,
  portal: PortalRow,
  prefix: string,
  locale: string,
  back: string,
  err: ApiError,
) {
  const t = stringsFor(locale);
  const origin = new URL(c.req.url).origin;
  const site = siteFor(portal, locale, prefix, portalBaseUrl(portal, origin), origin, [locale]);
  const why = err.code === "rate_limited" ? t.tooMany : err.message;
  const body = `<h1>${esc(t.notSaved)}</h1><p>${esc(why)}</p><p><a href="${esc(back)}">${esc(t.backToArticle)}</a></p>`;
  return c.html(
    page(site, { title: t.notSaved, path: back.slice(prefix.length), body }),
    err.status,
    {
      "cache-control": "no-store",
      ...err.headers,
    },
  );
}

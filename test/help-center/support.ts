import { SELF } from "cloudflare:test";
import { unique } from "../support/factories";
import { api } from "../support/http";

export const base = (accountId: number) => `/api/v1/accounts/${accountId}/portals`;

/** A portal made through the API by an administrator, with `en` and `es` unless told. */
export async function makePortal(
  accountId: number,
  token: string,
  body: Record<string, unknown> = {},
) {
  const res = await api(base(accountId), {
    method: "POST",
    token,
    body: {
      name: unique("Handbook"),
      slug: unique("hb").toLowerCase(),
      config: { allowed_locales: ["en", "es"], default_locale: "en" },
      ...body,
    },
  });
  if (res.status !== 200) {
    throw new Error(`portal: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return res.body as { id: number; slug: string; [k: string]: unknown };
}

export async function makeCategory(
  accountId: number,
  token: string,
  portalSlug: string,
  body: Record<string, unknown> = {},
) {
  const res = await api(`${base(accountId)}/${portalSlug}/categories`, {
    method: "POST",
    token,
    body: { name: unique("Category"), ...body },
  });
  if (res.status !== 200) {
    throw new Error(`category: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return res.body as { id: number; slug: string; locale: string; [k: string]: unknown };
}

export async function makeArticle(
  accountId: number,
  token: string,
  portalSlug: string,
  body: Record<string, unknown> = {},
) {
  const res = await api(`${base(accountId)}/${portalSlug}/articles`, {
    method: "POST",
    token,
    body: { title: unique("Article"), content: "Some text.", status: 1, ...body },
  });
  if (res.status !== 200) {
    throw new Error(`article: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return res.body as { id: number; slug: string; [k: string]: unknown };
}

/** A public page as a browser (or curl) gets it. */
export async function page(path: string, headers: Record<string, string> = {}) {
  const res = await SELF.fetch(`http://parley.test${path}`, { headers, redirect: "manual" });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

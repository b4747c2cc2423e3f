import { SELF } from "cloudflare:test";
import { vi } from "vitest";
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

/**
 * A fake DNS-over-HTTPS resolver (DNS is the outside world): the Worker's fetch of
 * `https://<host>/dns-query?name=…&type=TXT` is answered from `txt` (name → values; a name
 * without values is NXDOMAIN; an Error is a failed resolver), every other fetch goes out as
 * usual. Lookups are recorded; `stop()` restores fetch.
 */
export function fakeDoh(txt: Map<string, string[] | Error>, host = "doh.test") {
  const lookups: string[] = [];
  const real = globalThis.fetch;
  const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.hostname !== host) {
      return real(input, init);
    }
    const name = url.searchParams.get("name") ?? "";
    lookups.push(`${url.origin}${url.pathname} ${name} ${url.searchParams.get("type")}`);
    const answer = txt.get(name) ?? [];
    if (answer instanceof Error) {
      return new Response("resolver down", { status: 502 });
    }
    // DoH JSON quotes each TXT string; a long value comes as several strings.
    const data = (value: string) =>
      value.length > 20 ? `"${value.slice(0, 20)}" "${value.slice(20)}"` : `"${value}"`;
    return Response.json(
      {
        Status: answer.length === 0 ? 3 : 0,
        Answer: answer.map((value) => ({ name, type: 16, TTL: 60, data: data(value) })),
      },
      { headers: { "content-type": "application/dns-json" } },
    );
  });
  return { lookups, stop: () => spy.mockRestore() };
}

/** Claims `domain` for the portal and verifies it (its token answered by a fake DoH): served. */
export async function verifiedDomain(
  accountId: number,
  token: string,
  portalSlug: string,
  domain: string,
) {
  const claimed = await api(`${base(accountId)}/${portalSlug}`, {
    method: "PATCH",
    token,
    body: { custom_domain: domain },
  });
  const value = claimed.body.custom_domain_verification.record_value as string;
  const doh = fakeDoh(new Map([[`_parley-challenge.${domain}`, [value]]]), "cloudflare-dns.com");
  try {
    const verified = await api(`${base(accountId)}/${portalSlug}/custom_domain/verify`, {
      method: "POST",
      token,
    });
    if (verified.status !== 200) {
      throw new Error(`verify: ${verified.status} ${JSON.stringify(verified.body)}`);
    }
  } finally {
    doh.stop();
  }
}

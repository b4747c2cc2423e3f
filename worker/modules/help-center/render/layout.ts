import type { PortalRow } from "../../../db/schema";
import { esc, safeUrl } from "./escape";

/** Where a page is served from and how its links are written. */
export type Site = {
  portal: PortalRow;
  locale: string;
  /** Path prefix of every link: `/hc/{slug}`, or "" on the portal's own domain. */
  prefix: string;
  /** Absolute base for canonical URLs, OpenGraph and the sitemap. */
  canonicalBase: string;
  logoUrl: string | null;
};

export type PageOptions = {
  title: string;
  description?: string | null;
  /** Path after the base, e.g. `/articles/reset-password`. */
  path: string;
  body: string;
  alternates?: { locale: string; path: string }[];
  jsonLd?: Record<string, unknown>;
  type?: "website" | "article";
  /** Paths to this page in the portal's other locales, for the switcher. */
  localePaths?: Map<string, string>;
};

// One small stylesheet inlined in every page: no second request, no JavaScript at all.
const CSS = `:root{--c:#1f93ff;--bg:#fff;--fg:#1f2937;--mu:#4b5563;--bd:#e5e7eb;--cd:#f3f4f6;color-scheme:light dark}
@media(prefers-color-scheme:dark){:root{--bg:#111827;--fg:#f3f4f6;--mu:#b8c0cc;--bd:#374151;--cd:#1f2937}}
*{box-sizing:border-box}body{margin:0;font:17px/1.6 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:var(--bg);color:var(--fg)}
a{color:inherit}main a,.hl{color:var(--c)}@media(prefers-color-scheme:dark){main a{color:inherit}}
header{background:var(--c);color:#fff;padding:1rem 0 2rem}header a{color:#fff;text-decoration:none}
.w{max-width:52rem;margin:0 auto;padding:0 1rem}.top{display:flex;gap:1rem;align-items:center;justify-content:space-between;flex-wrap:wrap}
.brand{display:flex;gap:.5rem;align-items:center;font-weight:600}.brand img{height:2rem;width:auto}
h1{line-height:1.25}.hd{font-size:1.6rem;font-weight:700;margin:1.5rem 0 1rem}
form{display:flex;gap:.5rem}input[type=search]{flex:1;min-width:0;padding:.6rem .8rem;border:1px solid var(--bd);border-radius:.4rem;font:inherit;background:var(--bg);color:var(--fg)}
button{padding:.6rem 1rem;border:0;border-radius:.4rem;background:#111827;color:#fff;font:inherit;cursor:pointer}
nav.loc a{margin-left:.6rem}nav.loc [aria-current]{font-weight:700;text-decoration:underline}
main{padding:1.5rem 0 3rem}.grid{display:grid;gap:1rem;grid-template-columns:repeat(auto-fill,minmax(15rem,1fr));padding:0;list-style:none}
.card{border:1px solid var(--bd);border-radius:.5rem;padding:1rem}.card h3{margin:0 0 .3rem;font-size:1.05rem}.mu,.card p{color:var(--mu);margin:0}
ul.list{padding:0;list-style:none}ul.list li{padding:.6rem 0;border-bottom:1px solid var(--bd)}
.crumbs{font-size:.9rem;color:var(--mu)}.crumbs a{color:inherit}.toc{border-left:3px solid var(--c);padding-left:1rem;font-size:.95rem}
article img{max-width:100%;height:auto}pre{background:var(--cd);padding:1rem;overflow:auto;border-radius:.4rem}code{font-size:.9em}
table{border-collapse:collapse;display:block;overflow:auto}th,td{border:1px solid var(--bd);padding:.4rem .6rem}.a-right{text-align:right}.a-center{text-align:center}
blockquote{margin:0;padding-left:1rem;border-left:3px solid var(--bd);color:var(--mu)}mark{background:#fde68a;color:#111827}
footer{border-top:1px solid var(--bd);padding:1.5rem 0;color:var(--mu);font-size:.9rem}
@media print{header,footer,form,nav,.toc,.rel{display:none}body{font-size:12pt;color:#000;background:#fff}a{text-decoration:none}}`;

/** The homepage link's host for its label; the link itself when it does not parse. */
function hostOf(url: string): string {
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}

export const color = (c: string | null) => (c && /^#[0-9a-fA-F]{3,6}$/.test(c) ? c : "#1f93ff");

export function page(site: Site, opts: PageOptions): string {
  const { portal } = site;
  const siteName = portal.pageTitle || portal.name;
  const title = opts.title === siteName ? siteName : `${opts.title} | ${siteName}`;
  const canonical = `${site.canonicalBase}${opts.path}`;
  const alternates = (opts.alternates ?? [])
    .map(
      (a) =>
        `<link rel="alternate" hreflang="${esc(a.locale)}" href="${esc(site.canonicalBase + a.path)}">`,
    )
    .join("");
  const description = opts.description
    ? `<meta name="description" content="${esc(opts.description)}"><meta property="og:description" content="${esc(opts.description)}">`
    : "";
  const jsonLd = opts.jsonLd
    ? `<script type="application/ld+json">${JSON.stringify(opts.jsonLd).replace(/</g, "\\u003c")}</script>`
    : "";
  const home = safeUrl(portal.homepageLink ?? "");
  const switcher =
    portal.allowedLocales.length > 1
      ? `<nav class="loc" aria-label="Language">${portal.allowedLocales
          .map((l) => {
            const href = `${site.prefix}${opts.localePaths?.get(l) ?? `/${encodeURIComponent(l)}`}`;
            return `<a href="${esc(href || "/")}" hreflang="${esc(l)}" lang="${esc(l)}"${l === site.locale ? ' aria-current="page"' : ""}>${esc(l)}</a>`;
          })
          .join("")}</nav>`
      : "";
  const homePath = `${site.prefix}/${encodeURIComponent(site.locale)}`;
  return `<!doctype html><html lang="${esc(site.locale)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${esc(title)}</title><link rel="canonical" href="${esc(canonical)}">${alternates}${description}<meta property="og:title" content="${esc(opts.title)}"><meta property="og:type" content="${opts.type ?? "website"}"><meta property="og:url" content="${esc(canonical)}"><meta property="og:site_name" content="${esc(siteName)}">${site.logoUrl ? `<meta property="og:image" content="${esc(site.logoUrl)}">` : ""}<meta name="theme-color" content="${color(portal.color)}"><link rel="icon" href="${esc(site.logoUrl ?? `${site.prefix}/favicon.svg`)}"><style>${CSS.replace("#1f93ff", color(portal.color))}</style>${jsonLd}</head><body><header><div class="w"><div class="top"><a class="brand" href="${esc(homePath)}">${site.logoUrl ? `<img src="${esc(site.logoUrl)}" alt="" width="32" height="32">` : ""}<span>${esc(portal.name)}</span></a>${switcher}${home ? `<a href="${esc(home)}" rel="noopener">${esc(hostOf(home))}</a>` : ""}</div><p class="hd">${esc(portal.headerText || portal.name)}</p><form role="search" action="${esc(`${homePath}/articles`)}"><input type="search" name="query" aria-label="Search articles" placeholder="Search articles" required><button>Search</button></form></div></header><main class="w">${opts.body}</main><footer><div class="w">${esc(portal.name)}</div></footer></body></html>`;
}

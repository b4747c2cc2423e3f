import type { PortalRow } from "../../../db/schema";
import { esc, safeUrl } from "./escape";
import { FEEDBACK_SCRIPT_PATH } from "./feedback";
import { isRtl, stringsFor } from "./strings";

/** Where a page is served from and how its links are written. */
export type Site = {
  portal: PortalRow;
  locale: string;
  /** Path prefix of every link: `/hc/{slug}`, or "" on the portal's own domain. */
  prefix: string;
  /** Absolute base for canonical URLs, OpenGraph and the sitemap. */
  canonicalBase: string;
  logoUrl: string | null;
  /**
   * The locales offered to visitors (switcher, hreflang, sitemap): the allowed ones with a
   * published article, in the portal's order; the default alone when none has any.
   */
  offered: string[];
  /** The origin the page is served on: the scripts it loads come from here. */
  origin: string;
  /** The linked web-widget inbox's embed tag (its web_widget_script): the chat on every page. */
  chat: string | null;
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
  /** The home page: the header's line is the page's one h1, with a large search. */
  hero?: boolean;
  /** The search box's text (the results page keeps what was searched). */
  query?: string;
  /** The page has "Was this helpful?" (render/feedback.ts): its script goes with it. */
  feedback?: boolean;
};

// One small stylesheet inlined in every page: no second request, no JavaScript at all.
const CSS = `:root{--c:#1f93ff;--bg:#fff;--fg:#1f2937;--mu:#4b5563;--bd:#e5e7eb;--cd:#f3f4f6;color-scheme:light dark}
@media(prefers-color-scheme:dark){:root{--bg:#111827;--fg:#f3f4f6;--mu:#b8c0cc;--bd:#374151;--cd:#1f2937}}
*{box-sizing:border-box}body{margin:0;font:17px/1.6 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:var(--bg);color:var(--fg)}
a{color:inherit}main a,.hl{color:var(--lk)}@media(prefers-color-scheme:dark){main a{color:inherit}}
header{background:var(--c);color:var(--on);padding:1rem 0 1.5rem}header a{color:var(--on);text-decoration:none}.hero{padding-bottom:3rem}
.w{max-width:52rem;margin:0 auto;padding:0 1rem}.top{display:flex;gap:1rem;align-items:center;justify-content:space-between;flex-wrap:wrap}
.brand{display:flex;gap:.5rem;align-items:center;font-weight:600}.brand img{height:2rem;width:auto}
h1{line-height:1.25}.hd{font-size:1.25rem;font-weight:700;margin:1rem 0 .75rem}h1.hd{font-size:clamp(1.7rem,5vw,2.4rem);margin:2rem 0 1.25rem}
form{display:flex;gap:.4rem;padding:.3rem;background:var(--bg);border-radius:.6rem;box-shadow:0 2px 8px #0003}input[type=search]{flex:1;min-width:0;padding:.6rem .8rem;border:0;border-radius:.4rem;font:inherit;background:var(--bg);color:var(--fg)}
.hero input[type=search]{padding:.85rem 1rem;font-size:1.1rem}button{padding:.6rem 1.1rem;border:0;border-radius:.4rem;background:var(--c);color:var(--on);font:inherit;font-weight:600;cursor:pointer}
.home{border:1px solid currentColor;border-radius:99px;padding:.15rem .75rem;font-size:.9rem}
nav.loc a{margin-left:.6rem}nav.loc [aria-current]{font-weight:700;text-decoration:underline}
main{padding:1.5rem 0 3rem}.grid{display:grid;gap:1rem;grid-template-columns:repeat(auto-fill,minmax(15rem,1fr));padding:0;list-style:none}
.card{position:relative;border:1px solid var(--bd);border-radius:.6rem;padding:1rem 1.1rem}.card:hover{border-color:var(--c)}.card h3{margin:0 0 .3rem;font-size:1.05rem}.card h3 a::after{content:"";position:absolute;inset:0}.mu,.card p{color:var(--mu);margin:0}.n{font-size:.9rem;margin-top:.5rem!important}
ul.list{padding:0;list-style:none}ul.list li{padding:.6rem 0;border-bottom:1px solid var(--bd)}
.crumbs{font-size:.9rem;color:var(--mu)}.crumbs a{color:inherit}.toc{border-left:3px solid var(--c);padding-left:1rem;font-size:.95rem}
article img{max-width:100%;height:auto}pre{background:var(--cd);padding:1rem;overflow:auto;border-radius:.4rem}code{font-size:.9em}
table{border-collapse:collapse;display:block;overflow:auto}th,td{border:1px solid var(--bd);padding:.4rem .6rem}.a-right{text-align:right}.a-center{text-align:center}
blockquote{margin:0;padding-left:1rem;border-left:3px solid var(--bd);color:var(--mu)}mark{background:#fde68a;color:#111827}
.fb{margin:2rem 0;padding:1rem 1.1rem;border:1px solid var(--bd);border-radius:.6rem}.fb form{display:block;padding:0;background:none;box-shadow:none}.fb h2,.fb-t{font-size:1.05rem;margin:0 0 .6rem}.fb-t{font-weight:600}
.fb-b{display:flex;gap:.5rem}.fb-b button{min-width:5rem;background:var(--bg);color:var(--fg);border:1px solid var(--mu)}.fb-b button:hover{border-color:var(--c)}.fb label{display:block;margin-bottom:.4rem}.fb textarea{display:block;width:100%;margin-bottom:.6rem;padding:.5rem .6rem;font:inherit;color:var(--fg);background:var(--bg);border:1px solid var(--mu);border-radius:.4rem}
footer{border-top:1px solid var(--bd);padding:1.5rem 0;color:var(--mu);font-size:.9rem}
@media print{header,footer,form,nav,.toc,.rel,.fb{display:none}body{font-size:12pt;color:#000;background:#fff}a{text-decoration:none}}`;

/** The homepage link's host for its label; the link itself when it does not parse. */
function hostOf(url: string): string {
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}

export const color = (c: string | null) => (c && /^#[0-9a-fA-F]{3,6}$/.test(c) ? c : "#1f93ff");

/** Text that reads on the brand colour: near-black on light colours, white on dark ones. */
export function onColor(hex: string): string {
  const h = hex.length === 4 ? hex.replace(/[0-9a-f]/gi, (d) => d + d).slice(1) : hex.slice(1);
  const [r, g, b] = [0, 2, 4].map((i) => {
    const v = Number.parseInt(h.slice(i, i + 2), 16) / 255;
    return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  // White reaches 4.5:1 only below ~0.18; above it the dark text has the better contrast.
  return luminance > 0.18 ? "#111827" : "#fff";
}

/** Links in the brand colour where it reads on white (4.5:1), else in the text colour. */
const linkColor = (brand: string) => (onColor(brand) === "#fff" ? brand : "#1f2937");

export function page(site: Site, opts: PageOptions): string {
  const { portal } = site;
  const t = stringsFor(site.locale);
  const brand = color(portal.color);
  const siteName = portal.pageTitle || portal.name;
  const title = opts.title === siteName ? siteName : `${opts.title} | ${siteName}`;
  const canonical = `${site.canonicalBase}${opts.path}`;
  const alternates = (opts.alternates ?? [])
    .map(
      (a) =>
        `<link rel="alternate" hreflang="${esc(a.locale)}" href="${esc(site.canonicalBase + a.path)}">`,
    )
    .join("");
  // Every page has one (search results, an article or portal without a description): search
  // engines show it, and Lighthouse's SEO audit wants it.
  const about = esc(opts.description || title);
  const description = `<meta name="description" content="${about}"><meta property="og:description" content="${about}">`;
  const jsonLd = opts.jsonLd
    ? `<script type="application/ld+json">${JSON.stringify(opts.jsonLd).replace(/</g, "\\u003c")}</script>`
    : "";
  const home = safeUrl(portal.homepageLink ?? "");
  const switcher =
    site.offered.length > 1
      ? `<nav class="loc" aria-label="${esc(t.language)}">${site.offered
          .map((l) => {
            const href = `${site.prefix}${opts.localePaths?.get(l) ?? `/${encodeURIComponent(l)}`}`;
            return `<a href="${esc(href || "/")}" hreflang="${esc(l)}" lang="${esc(l)}"${l === site.locale ? ' aria-current="page"' : ""}>${esc(l)}</a>`;
          })
          .join("")}</nav>`
      : "";
  const homePath = `${site.prefix}/${encodeURIComponent(site.locale)}`;
  return `<!doctype html><html lang="${esc(site.locale)}"${isRtl(site.locale) ? ' dir="rtl"' : ""}><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${esc(title)}</title><link rel="canonical" href="${esc(canonical)}">${alternates}${description}<meta property="og:title" content="${esc(opts.title)}"><meta property="og:type" content="${opts.type ?? "website"}"><meta property="og:url" content="${esc(canonical)}"><meta property="og:site_name" content="${esc(siteName)}">${site.logoUrl ? `<meta property="og:image" content="${esc(site.logoUrl)}">` : ""}<meta name="theme-color" content="${brand}"><link rel="icon" href="${esc(site.logoUrl ?? `${site.prefix}/favicon.svg`)}"><style>${CSS.replace("--c:#1f93ff", `--c:${brand};--on:${onColor(brand)};--lk:${linkColor(brand)}`)}</style>${jsonLd}</head><body><header${opts.hero ? ' class="hero"' : ""}><div class="w"><div class="top"><a class="brand" href="${esc(homePath)}">${site.logoUrl ? `<img src="${esc(site.logoUrl)}" alt="" width="32" height="32">` : ""}<span>${esc(portal.name)}</span></a>${switcher}${home ? `<a class="home" href="${esc(home)}" rel="noopener">${esc(hostOf(home))} ↗</a>` : ""}</div>${opts.hero ? `<h1 class="hd">${esc(portal.headerText || portal.name)}</h1>` : ""}<form role="search" action="${esc(`${homePath}/articles`)}"><input type="search" name="query" aria-label="${esc(t.search)}" placeholder="${esc(t.search)}"${opts.query ? ` value="${esc(opts.query)}"` : ""} required><button>${esc(t.searchButton)}</button></form></div></header><main class="w">${opts.body}</main><footer><div class="w">${esc(portal.name)}</div></footer>${opts.feedback ? `<script src="${esc(site.origin + FEEDBACK_SCRIPT_PATH)}" defer></script>` : ""}${site.chat ?? ""}</body></html>`;
}

/**
 * What every plain HTML form page the Worker serves shares (the mailed-link pages, the CSAT
 * survey): headers that keep tokens out of Referer and the page out of caches and frames, and the
 * palette with its dark variant. Each page adds its own rules after the base.
 */
export const formPageHeaders = (opts: { script: boolean }) =>
  ({
    "Content-Security-Policy": `default-src 'none'; ${
      opts.script ? "script-src 'self'; " : ""
    }style-src 'unsafe-inline'; ${
      opts.script ? "img-src 'self'; " : ""
    }form-action 'self'; base-uri 'none'; frame-ancestors 'none'`,
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
  }) as const;

export const FORM_PAGE_BASE_STYLE = `:root{--bg:#f3f5f8;--card:#fff;--fg:#1c2024;--mu:#555d68;--bd:#c9ced6;--ac:#1a5fd0;--ac-fg:#fff;--err:#b42318;color-scheme:light dark}
@media(prefers-color-scheme:dark){:root{--bg:#101214;--card:#1a1d21;--fg:#eceef1;--mu:#a9b0ba;--bd:#3a4047;--ac:#6ea5ff;--ac-fg:#0b1220;--err:#ff8a80}}
*{box-sizing:border-box}body{font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;background:var(--bg);color:var(--fg)}`;

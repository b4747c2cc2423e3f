import { FEEDBACK_SCRIPT_PATH } from "./render/feedback";

/**
 * The headers of every public help-center page. The CSP names each script the pages may run
 * by its full URL, nothing else: the "Was this helpful?" script, and, when the portal has a
 * linked web-widget inbox, the widget's loader, its reply preview and its chat frame (the
 * widget's one tag, as any site embeds it: script and frame sources, no connect, style or img).
 * Stored content can still run nothing: no inline script, no other file of this origin.
 */
export function pageHeaders(origin: string, chat: boolean): Record<string, string> {
  const scripts = [
    `${origin}${FEEDBACK_SCRIPT_PATH}`,
    // The loader imports the reply preview (a reply while the chat is closed) as a module.
    ...(chat ? [`${origin}/widget.js`, `${origin}/widget-preview.js`] : []),
  ];
  return {
    "content-security-policy": [
      "default-src 'none'",
      `script-src ${scripts.join(" ")}`,
      "style-src 'unsafe-inline'",
      "img-src 'self' https: http:",
      "connect-src 'self'",
      ...(chat ? [`frame-src ${origin}/frame`] : []),
      "form-action 'self'",
      "base-uri 'none'",
    ].join("; "),
    "x-content-type-options": "nosniff",
    "referrer-policy": "strict-origin-when-cross-origin",
  };
}

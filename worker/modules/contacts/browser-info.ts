import Bowser from "bowser";

/** Chatwoot's event_info.browser (its `browser` gem), read from the visitor's User-Agent. */
export type BrowserInfo = {
  browser_name: string;
  browser_version: string;
  device_name: string;
  platform_name: string;
  platform_version: string;
};

/**
 * What webwidget_triggered receivers get as `event_info.browser` when the widget did not say:
 * the widget leaves it out (parsing a User-Agent there would cost its size budget), and the
 * request that carries the event has the same User-Agent. Unknown parts are "unknown".
 */
export function browserInfo(userAgent: string | undefined): BrowserInfo | null {
  if (!userAgent) {
    return null;
  }
  const parsed = Bowser.parse(userAgent.slice(0, 512));
  const unknown = (v: string | undefined) => (v && v.trim() !== "" ? v : "unknown");
  return {
    browser_name: unknown(parsed.browser.name),
    browser_version: unknown(parsed.browser.version),
    device_name: unknown(parsed.platform.vendor ?? parsed.platform.model ?? parsed.platform.type),
    platform_name: unknown(parsed.os.name),
    platform_version: unknown(parsed.os.version ?? parsed.os.versionName),
  };
}

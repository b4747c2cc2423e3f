/** Chatwoot's event_info.browser (its `browser` gem), read from the visitor's User-Agent. */
export type BrowserInfo = {
  browser_name: string;
  browser_version: string;
  device_name: string;
  platform_name: string;
  platform_version: string;
};

type Rule = readonly [name: string, pattern: RegExp];

// Order matters: Edge, Opera and Samsung also say "Chrome", and every Chromium says "Safari".
// A short table instead of a UA-parser library: the field is informational, and a full parser
// (bowser was 36 KB of the Worker) cost more than the rest of the contacts module.
const BROWSERS: readonly Rule[] = [
  ["Microsoft Edge", /\b(?:Edg|Edge|EdgA|EdgiOS)\/([\d.]+)/],
  ["Opera", /\b(?:OPR|Opera|OPiOS)\/([\d.]+)/],
  ["Samsung Internet for Android", /\bSamsungBrowser\/([\d.]+)/],
  ["Yandex Browser", /\bYaBrowser\/([\d.]+)/],
  ["Vivaldi", /\bVivaldi\/([\d.]+)/],
  ["Firefox", /\b(?:Firefox|FxiOS)\/([\d.]+)/],
  ["Chromium", /\bChromium\/([\d.]+)/],
  ["Chrome", /\b(?:Chrome|CriOS)\/([\d.]+)/],
  ["Safari", /\bVersion\/([\d.]+).*\bSafari\//],
  ["Internet Explorer", /\b(?:MSIE |Trident\/.*\brv:)([\d.]+)/],
];

const PLATFORMS: readonly Rule[] = [
  ["Windows Phone", /\bWindows Phone(?: OS)? ([\d.]+)/],
  ["Windows", /\bWindows (NT [\d.]+)/],
  ["iOS", /\b(?:iPhone|CPU) OS ([\d_]+)/],
  ["iOS", /\b(?:iPhone|iPad|iPod)\b()/],
  ["Android", /\bAndroid ([\d.]+)/],
  ["Chrome OS", /\bCrOS \S+ ([\d.]+)/],
  ["macOS", /\bMac OS X ([\d_.]+)/],
  ["Linux", /\bLinux\b()/],
];

function match(rules: readonly Rule[], ua: string): [string, string] {
  for (const [name, pattern] of rules) {
    const found = pattern.exec(ua);
    if (found) {
      return [name, (found[1] ?? "").replace(/_/g, ".")];
    }
  }
  return ["", ""];
}

/** Bowser's device naming, which earlier payloads carried: the vendor when known, else the type. */
function deviceName(ua: string): string {
  if (/\b(?:iPhone|iPad|iPod|Macintosh)\b/.test(ua)) {
    return "Apple";
  }
  if (/\bAndroid\b/.test(ua)) {
    return /\bMobile\b/.test(ua) ? "mobile" : "tablet";
  }
  return /\b(?:Mobile|Phone)\b/.test(ua) ? "mobile" : "desktop";
}

/**
 * What webwidget_triggered receivers get as `event_info.browser` when the widget did not say:
 * the widget leaves it out (parsing a User-Agent there would cost its size budget), and the
 * request that carries the event has the same User-Agent. Unknown parts are "unknown".
 */
export function browserInfo(userAgent: string | undefined): BrowserInfo | null {
  if (!userAgent) {
    return null;
  }
  const ua = userAgent.slice(0, 512);
  const [browserName, browserVersion] = match(BROWSERS, ua);
  const [platformName, platformVersion] = match(PLATFORMS, ua);
  const unknown = (v: string) => (v.trim() !== "" ? v : "unknown");
  return {
    browser_name: unknown(browserName),
    browser_version: unknown(browserVersion),
    device_name: deviceName(ua),
    platform_name: unknown(platformName),
    platform_version: unknown(platformVersion),
  };
}

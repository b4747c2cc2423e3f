import { describe, expect, it } from "vitest";
import { browserInfo } from "../../worker/modules/contacts/browser-info";

const CASES: [
  ua: string,
  browser: string,
  version: string,
  platform: string,
  platformVersion: string,
  device: string,
][] = [
  [
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36",
    "Chrome",
    "126.0.0.0",
    "Windows",
    "NT 10.0",
    "desktop",
  ],
  [
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.2592.56",
    "Microsoft Edge",
    "126.0.2592.56",
    "Windows",
    "NT 10.0",
    "desktop",
  ],
  [
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15",
    "Safari",
    "17.5",
    "macOS",
    "10.15.7",
    "Apple",
  ],
  [
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
    "Safari",
    "17.5",
    "iOS",
    "17.5",
    "Apple",
  ],
  [
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0.6478.54 Mobile/15E148 Safari/604.1",
    "Chrome",
    "126.0.6478.54",
    "iOS",
    "17.5",
    "Apple",
  ],
  [
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.71 Mobile Safari/537.36",
    "Chrome",
    "126.0.6478.71",
    "Android",
    "14",
    "mobile",
  ],
  [
    "Mozilla/5.0 (Linux; Android 13; SM-X700) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Safari/537.36",
    "Samsung Internet for Android",
    "25.0",
    "Android",
    "13",
    "tablet",
  ],
  [
    "Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0",
    "Firefox",
    "127.0",
    "Linux",
    "unknown",
    "desktop",
  ],
  [
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 OPR/111.0.0.0",
    "Opera",
    "111.0.0.0",
    "Windows",
    "NT 10.0",
    "desktop",
  ],
  [
    "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36",
    "Chrome",
    "126.0.0.0",
    "Chrome OS",
    "14541.0.0",
    "desktop",
  ],
  [
    "Mozilla/5.0 (Windows NT 6.1; Trident/7.0; rv:11.0) like Gecko",
    "Internet Explorer",
    "11.0",
    "Windows",
    "NT 6.1",
    "desktop",
  ],
  ["curl/8.5.0", "unknown", "unknown", "unknown", "unknown", "desktop"],
];

describe("browserInfo (event_info.browser from the User-Agent)", () => {
  it.each(CASES)("reads %s", (ua, browser, version, platform, platformVersion, device) => {
    expect(browserInfo(ua)).toEqual({
      browser_name: browser,
      browser_version: version,
      device_name: device,
      platform_name: platform,
      platform_version: platformVersion,
    });
  });

  it("answers null without a User-Agent and reads at most 512 characters of a hostile one", () => {
    expect(browserInfo(undefined)).toBeNull();
    expect(browserInfo("")).toBeNull();
    const hostile = `${"(".repeat(100_000)}Chrome/1.2`;
    expect(browserInfo(hostile)?.browser_name).toBe("unknown");
  });
});

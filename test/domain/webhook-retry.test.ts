import { describe, expect, it } from "vitest";
import {
  DEFAULT_SCHEDULE,
  isRetryable,
  MAX_DELAY,
  nextDelay,
  retryAfterSeconds,
  retrySchedule,
} from "../../worker/modules/webhooks/retry";
import { standardKey } from "../../worker/modules/webhooks/signing";

describe("retry schedule", () => {
  it("is Standard Webhooks' unless WEBHOOK_RETRY_SCHEDULE replaces it", () => {
    expect(retrySchedule(undefined)).toEqual([5, 300, 1800, 7200, 18000, 36000, 36000]);
    expect(retrySchedule("")).toEqual(DEFAULT_SCHEDULE);
    expect(retrySchedule("1, 2,5")).toEqual([1, 2, 5]);
    expect(retrySchedule("x,-1")).toEqual(DEFAULT_SCHEDULE);
  });

  it("adds at most 10% jitter, lets a longer Retry-After win, and caps at the queue's 12 h", () => {
    expect(nextDelay([10, 20], 1, null, () => 0)).toBe(10);
    expect(nextDelay([10, 20], 2, null, () => 0.999)).toBe(22);
    expect(nextDelay([10, 20], 3, null)).toBeNull();
    expect(nextDelay([10], 1, 90, () => 0)).toBe(90);
    expect(nextDelay([10], 1, 2, () => 0)).toBe(10);
    expect(nextDelay([10], 1, 10 ** 6, () => 0)).toBe(MAX_DELAY);
  });

  it("reads Retry-After as seconds or as an HTTP date", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(retryAfterSeconds("120", now)).toBe(120);
    expect(retryAfterSeconds("Thu, 01 Jan 2026 00:01:00 GMT", now)).toBe(60);
    expect(retryAfterSeconds("soon", now)).toBeNull();
    expect(retryAfterSeconds(null, now)).toBeNull();
  });

  it("retries network errors, timeouts, 408, 429 and 5xx only", () => {
    expect([null, 408, 429, 500, 503].every(isRetryable)).toBe(true);
    expect([200, 301, 400, 401, 404, 410, 422].some(isRetryable)).toBe(false);
  });
});

describe("standard webhooks key", () => {
  it("decodes whsec_ secrets and base64 secrets, and uses other secrets' bytes", () => {
    expect(standardKey(`whsec_${btoa("0123456789abcdef0123456789abcdef")}`)).toHaveLength(32);
    expect(standardKey("AAAA")).toEqual(new Uint8Array([0, 0, 0]));
    expect(new TextDecoder().decode(standardKey("not base64!"))).toBe("not base64!");
  });
});

import { describe, expect, it } from "vitest";
import { retryAfterSeconds } from "../../../worker/http/middleware/rate-limit";
import {
  createPublicContact,
  createPublicConversation,
  createPublicWorld,
  freshIp,
  pub,
} from "../../support/factories-public";
import { expectError } from "../../support/http";
import { inOneWindow } from "../../support/rate-window";

function expectLimited(res: Awaited<ReturnType<typeof pub>>) {
  expectError(res, 429, "rate_limited");
  const retryAfter = Number(res.headers.get("retry-after"));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(res.headers.get("access-control-allow-origin")).toBe("*");
}

describe("public API rate limits", () => {
  it("allows 30 new messages a minute per contact, then 429 with Retry-After", async () => {
    const w = await createPublicWorld();
    const { path } = await inOneWindow(15, async () => {
      const { path } = await createPublicConversation(w.base);
      for (let i = 1; i <= 30; i++) {
        const res = await pub(`${path}/messages`, { method: "POST", body: { content: `m${i}` } });
        expect(res.status).toBe(200);
      }
      const over = await pub(`${path}/messages`, {
        method: "POST",
        body: { content: "one too many" },
        headers: { Origin: "https://site.example" },
      });
      expectLimited(over);
      return { path };
    });
    // Reading is still fine, and nothing extra was stored.
    const list = await pub(`${path}/messages`);
    expect(list.status).toBe(200);
    expect(list.body.at(-1).content).toBe("m30");
    // Another contact is not affected.
    const other = await createPublicConversation(w.base);
    const ok = await pub(`${other.path}/messages`, { method: "POST", body: { content: "hi" } });
    expect(ok.status).toBe(200);
  }, 240_000);

  it("allows 120 requests a minute per contact, whatever the address", async () => {
    const w = await createPublicWorld();
    await inOneWindow(15, async () => {
      const contact = await createPublicContact(w.base);
      const path = `${w.base}/contacts/${contact.source_id}`;
      for (let i = 1; i <= 120; i++) {
        expect((await pub(path)).status).toBe(200);
      }
      expectLimited(await pub(path));
      expectLimited(await pub(`${path}/conversations`));
    });
    // The inbox itself and other contacts still answer.
    expect((await pub(w.base)).status).toBe(200);
    const other = await createPublicContact(w.base);
    expect((await pub(`${w.base}/contacts/${other.source_id}`)).status).toBe(200);
  }, 240_000);

  it("allows 600 requests a minute per address across the public API", async () => {
    const w = await createPublicWorld();
    await inOneWindow(20, async () => {
      const ip = freshIp();
      for (let i = 1; i <= 600; i++) {
        const res = await pub(i % 2 ? w.base : "unknown-inbox", { ip });
        expect(res.status).toBe(i % 2 ? 200 : 404);
      }
      expectLimited(await pub(w.base, { ip }));
      expectLimited(await pub(`${w.base}/contacts`, { method: "POST", ip }));
      // X-Forwarded-For is ignored: a fresh one per request does not escape the address's limit.
      for (const forwarded of ["198.51.100.7", `${freshIp()}, 10.0.0.1`, freshIp()]) {
        expectLimited(await pub(w.base, { ip, headers: { "x-forwarded-for": forwarded } }));
      }
    });
    expect((await pub(w.base)).status).toBe(200);
  }, 360_000);
});

describe("retryAfterSeconds", () => {
  it("counts the seconds left in the current window", () => {
    expect(retryAfterSeconds(60_000)).toBe(60);
    expect(retryAfterSeconds(61_000)).toBe(59);
    expect(retryAfterSeconds(119_999)).toBe(1);
    expect(retryAfterSeconds(125_000, 10)).toBe(5);
  });
});

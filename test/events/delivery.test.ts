import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import * as t from "../../worker/db/schema";
import { hmacSha256Hex } from "../../worker/lib/hmac";
import { DEFAULT_SCHEDULE } from "../../worker/modules/webhooks/retry";
import { createWorld, db } from "../support/factories";
import {
  type Answer,
  attemptOpenDeliveries,
  consume,
  createWebhook,
  type DnsAnswer,
  deliveryRows,
  processEvents,
  recordingOutbound,
} from "../support/factories-webhooks";
import { api } from "../support/http";

let seq = 0;

/** An account with a webhook on contact_created, and one contact created: one delivery. */
async function oneDelivery(answer?: Answer, dns?: DnsAnswer) {
  const w = await createWorld();
  const hook = await createWebhook(w.admin.token, w.account.id, {
    url: `https://receiver-${++seq}.example.com/hook`,
    subscriptions: ["contact_created"],
  });
  const created = await api(`/api/v1/accounts/${w.account.id}/contacts`, {
    method: "POST",
    token: w.admin.token,
    body: { inbox_id: w.inbox.id, name: `Contact ${seq}` },
  });
  expect(created.status).toBe(200);
  const rec = recordingOutbound(answer, dns);
  await processEvents(w.account.id, 0, { outbound: rec.outbound });
  const [delivery] = await deliveryRows(w.account.id);
  if (!delivery) {
    throw new Error("no delivery written");
  }
  const attempt = () => attemptOpenDeliveries(w.account.id, { outbound: rec.outbound });
  const current = async () => (await deliveryRows(w.account.id))[0] as typeof delivery;
  return { ...w, hook, rec, delivery, attempt, current, contactId: created.body.id as number };
}

const status =
  (code: number, headers: Record<string, string> = {}) =>
  () =>
    new Response("x", { status: code, headers });

describe("signing", () => {
  it("signs each delivery so both the spec's header and the stock Standard Webhooks verifier accept it", async () => {
    const d = await oneDelivery();
    await d.attempt();
    const [req] = d.rec.requests;
    if (!req) {
      throw new Error("nothing sent");
    }
    expect(req.json).toMatchObject({ event: "contact_created", id: d.contactId });
    expect(req.headers.get("content-type")).toBe("application/json");
    const ts = req.headers.get("x-service-timestamp") ?? "";
    expect(Math.abs(Number(ts) - Date.now() / 1000)).toBeLessThan(60);
    // The spec: "sha256=" + lowercase hex HMAC-SHA256(secret as shown, "{timestamp}.{body}").
    const expected = `sha256=${await hmacSha256Hex(d.hook.secret, `${ts}.${req.body}`)}`;
    expect(req.headers.get("x-service-signature")).toBe(expected);
    // Standard Webhooks, with the stock library.
    const headers = Object.fromEntries(req.headers);
    expect(new Webhook(d.hook.secret).verify(req.body, headers)).toMatchObject({
      event: "contact_created",
    });
    expect(() => new Webhook(d.hook.secret).verify(`${req.body} `, headers)).toThrow();
    expect(req.headers.get("x-service-delivery")).toBe(d.delivery.deliveryId);
    expect(req.headers.get("webhook-id")).toBe(d.delivery.deliveryId);
    expect(req.headers.get("webhook-timestamp")).toBe(ts);
    expect(await d.current()).toMatchObject({
      status: "succeeded",
      attempts: 1,
      lastStatusCode: 200,
    });
  });
});

describe("retries", () => {
  it("retries after 500s on the schedule, with the same delivery id, until it succeeds", async () => {
    const d = await oneDelivery((_req, n) => (n < 2 ? status(500)() : new Response("ok")));
    const before = Math.floor(Date.now() / 1000);
    const first = await d.attempt();
    expect(first.retries).toHaveLength(1);
    expect(first.retries[0]?.delaySeconds).toBeGreaterThanOrEqual(5);
    expect(first.retries[0]?.delaySeconds).toBeLessThanOrEqual(6);
    const row = await d.current();
    expect(row).toMatchObject({ status: "retrying", attempts: 1, lastStatusCode: 500 });
    // At least the delay after the attempt, however long the attempt and this read took.
    expect(row.nextAttemptAt).toBeGreaterThanOrEqual(
      before + (first.retries[0]?.delaySeconds ?? 5),
    );
    const second = await d.attempt();
    expect(second.retries[0]?.delaySeconds).toBeGreaterThanOrEqual(300);
    expect(second.retries[0]?.delaySeconds).toBeLessThanOrEqual(330);
    const third = await d.attempt();
    expect(third).toEqual({ acked: 1, retries: [] });
    const done = await d.current();
    expect(done).toMatchObject({ status: "succeeded", attempts: 3, nextAttemptAt: null });
    expect(done.attemptLog.map((a) => a.status_code)).toEqual([500, 500, 200]);
    expect(done.attemptLog[0]?.error).toBe("HTTP 500");
    const ids = d.rec.requests.map((r) => r.headers.get("x-service-delivery"));
    expect(new Set(ids)).toEqual(new Set([d.delivery.deliveryId]));
  });

  it("follows the whole Standard Webhooks schedule, then fails the delivery for good", async () => {
    const d = await oneDelivery(status(503));
    const delays: number[] = [];
    for (let i = 0; i < DEFAULT_SCHEDULE.length; i++) {
      const { retries } = await d.attempt();
      delays.push(retries[0]?.delaySeconds ?? -1);
    }
    delays.forEach((delay, i) => {
      const base = DEFAULT_SCHEDULE[i] as number;
      expect(delay).toBeGreaterThanOrEqual(base);
      expect(delay).toBeLessThanOrEqual(Math.ceil(base * 1.1));
    });
    expect(await d.attempt()).toEqual({ acked: 1, retries: [] });
    expect(await d.current()).toMatchObject({ status: "failed", attempts: 8, nextAttemptAt: null });
    expect(d.rec.requests).toHaveLength(8);
  });

  it("retries timeouts and network errors", async () => {
    const d = await oneDelivery((_req, n) => {
      if (n === 0) {
        throw new DOMException("The operation timed out.", "TimeoutError");
      }
      if (n === 1) {
        throw new TypeError("connection refused");
      }
      return new Response("ok");
    });
    expect((await d.attempt()).retries).toHaveLength(1);
    expect((await d.current()).lastError).toBe("timed out after 10 s");
    expect((await d.attempt()).retries).toHaveLength(1);
    expect((await d.current()).lastError).toMatch(/^network error: connection refused/);
    await d.attempt();
    expect(await d.current()).toMatchObject({ status: "succeeded", attempts: 3 });
  });

  it("aborts an attempt at the per-attempt timeout", async () => {
    const d = await oneDelivery(
      (req) =>
        new Promise<Response>((_resolve, reject) => {
          req.signal.addEventListener("abort", () => reject(req.signal.reason));
        }),
    );
    const started = Date.now();
    const { retries } = await attemptOpenDeliveries(d.account.id, {
      outbound: d.rec.outbound,
      timeoutMs: 50,
    });
    // The attempt's own 50 ms fired, not the default 10 s (the bound is a loaded machine's margin).
    expect(Date.now() - started).toBeLessThan(8000);
    expect(retries).toHaveLength(1);
    expect((await d.current()).lastError).toBe("timed out after 0.05 s");
  });

  it("honours Retry-After on 429 and 408", async () => {
    const d = await oneDelivery((_req, n) =>
      n === 0 ? status(429, { "Retry-After": "120" })() : status(408)(),
    );
    expect((await d.attempt()).retries[0]?.delaySeconds).toBe(120);
    const second = (await d.attempt()).retries[0]?.delaySeconds ?? 0;
    expect(second).toBeGreaterThanOrEqual(300);
  });
});

describe("answers that end a delivery", () => {
  it("disables the webhook on 410 Gone; an update enables it again", async () => {
    const d = await oneDelivery(status(410));
    expect(await d.attempt()).toEqual({ acked: 1, retries: [] });
    expect(await d.current()).toMatchObject({ status: "failed", lastStatusCode: 410 });
    const hook = await db().select().from(t.webhooks).where(eq(t.webhooks.id, d.hook.id)).get();
    expect(hook?.disabledAt).not.toBeNull();
    // Disabled: the next event makes no delivery.
    await api(`/api/v1/accounts/${d.account.id}/contacts`, {
      method: "POST",
      token: d.admin.token,
      body: { inbox_id: d.inbox.id, name: "after 410" },
    });
    await processEvents(d.account.id, 0, { outbound: d.rec.outbound });
    expect(await deliveryRows(d.account.id)).toHaveLength(1);
    const patched = await api(`/api/v1/accounts/${d.account.id}/webhooks/${d.hook.id}`, {
      method: "PATCH",
      token: d.admin.token,
      body: { name: "back" },
    });
    expect(patched.body.disabled_at).toBeNull();
  });

  it("does not follow redirects: a 3xx fails the delivery without a retry", async () => {
    const d = await oneDelivery(status(302, { location: "https://elsewhere.example.com/" }));
    expect(await d.attempt()).toEqual({ acked: 1, retries: [] });
    expect(d.rec.requests).toHaveLength(1);
    expect(d.rec.requests[0]?.redirect).toBe("manual");
    expect(await d.current()).toMatchObject({
      status: "failed",
      lastStatusCode: 302,
      lastError: "HTTP 302: redirect not followed",
    });
  });

  it("does not retry other 4xx answers", async () => {
    const d = await oneDelivery(status(400));
    expect(await d.attempt()).toEqual({ acked: 1, retries: [] });
    expect(await d.current()).toMatchObject({ status: "failed", attempts: 1 });
  });

  it("refuses at send time a URL that reaches a private network, without a request", async () => {
    const d = await oneDelivery();
    // A row from before the rule, or an address that only became private later.
    await db()
      .update(t.webhookDeliveries)
      .set({ url: "http://169.254.169.254/latest/meta-data" })
      .where(eq(t.webhookDeliveries.id, d.delivery.id));
    expect(await d.attempt()).toEqual({ acked: 1, retries: [] });
    expect(d.rec.requests).toHaveLength(0);
    expect(await d.current()).toMatchObject({
      status: "failed",
      lastError: "url must not point at a private, loopback or link-local address",
    });
  });
});

describe("the receiver's host, resolved before each send", () => {
  const setUrl = (id: number, url: string) =>
    db().update(t.webhookDeliveries).set({ url }).where(eq(t.webhookDeliveries.id, id));

  it("looks the host name up (A and AAAA, DNS over HTTPS) and sends when every address is public", async () => {
    const d = await oneDelivery();
    await d.attempt();
    const host = new URL(d.delivery.url).hostname;
    expect(d.rec.lookups.sort()).toEqual([`A ${host}`, `AAAA ${host}`]);
    expect(d.rec.requests).toHaveLength(1);
    expect(await d.current()).toMatchObject({ status: "succeeded" });
  });

  it("refuses a name that resolves to a private address, without a request and for good", async () => {
    const d = await oneDelivery(undefined, (name, type) =>
      type === "A" && name === "127.0.0.1.nip.io" ? ["127.0.0.1"] : [],
    );
    await setUrl(d.delivery.id, "https://127.0.0.1.nip.io/hook");
    expect(await d.attempt()).toEqual({ acked: 1, retries: [] });
    expect(d.rec.requests).toHaveLength(0);
    expect(await d.current()).toMatchObject({
      status: "failed",
      lastStatusCode: null,
      lastError:
        "url host 127.0.0.1.nip.io resolves to 127.0.0.1: must not point at a private, loopback or link-local address",
    });
  });

  it("refuses a name when any one of its addresses is private, IPv6 included", async () => {
    for (const private6 of ["fd00::1", "::ffff:10.0.0.1", "fe80::1"]) {
      const d = await oneDelivery(undefined, (_name, type) =>
        type === "A" ? ["93.184.216.34"] : [private6],
      );
      expect(await d.attempt()).toEqual({ acked: 1, retries: [] });
      expect(d.rec.requests).toHaveLength(0);
      expect((await d.current()).lastError).toContain(`resolves to ${private6}: must not point`);
    }
  });

  it("retries on the schedule, without a request, while the resolver fails; sends once it answers", async () => {
    let resolverUp = false;
    const d = await oneDelivery(undefined, (name, type) => {
      if (!resolverUp) {
        return new TypeError("resolver unreachable");
      }
      return type === "A" ? ["93.184.216.34"] : [];
    });
    const first = await d.attempt();
    expect(first.retries).toHaveLength(1);
    expect(d.rec.requests).toHaveLength(0);
    expect(await d.current()).toMatchObject({ status: "retrying", attempts: 1 });
    expect((await d.current()).lastError).toMatch(
      /^dns lookup of receiver-\d+\.example\.com failed: resolver unreachable/,
    );
    resolverUp = true;
    await d.attempt();
    expect(d.rec.requests).toHaveLength(1);
    expect(await d.current()).toMatchObject({ status: "succeeded", attempts: 2 });
  });

  it("retries a name with no address at all rather than sending unchecked", async () => {
    const d = await oneDelivery(undefined, () => []);
    expect((await d.attempt()).retries).toHaveLength(1);
    expect(d.rec.requests).toHaveLength(0);
    expect((await d.current()).lastError).toMatch(/found no address$/);
  });

  it("does not look up IP-literal hosts", async () => {
    const d = await oneDelivery();
    await setUrl(d.delivery.id, "https://93.184.216.34/hook");
    await d.attempt();
    expect(d.rec.lookups).toEqual([]);
    expect(d.rec.requests.map((r) => r.url)).toEqual(["https://93.184.216.34/hook"]);
  });
});

describe("at least once, exactly once after de-duplication", () => {
  it("delivers every event once the receiver is back up", async () => {
    const w = await createWorld();
    await createWebhook(w.admin.token, w.account.id, {
      url: "https://flaky.example.com/hook",
      subscriptions: ["contact_created"],
    });
    for (let i = 0; i < 6; i++) {
      await api(`/api/v1/accounts/${w.account.id}/contacts`, {
        method: "POST",
        token: w.admin.token,
        body: { inbox_id: w.inbox.id, name: `Down ${i}` },
      });
    }
    let up = false;
    const rec = recordingOutbound(() => {
      if (!up) {
        throw new TypeError("connection refused");
      }
      return new Response("ok");
    });
    await processEvents(w.account.id, 0, { outbound: rec.outbound });
    // Down for two rounds of attempts, then up.
    for (let round = 0; round < 5; round++) {
      up = round >= 2;
      await attemptOpenDeliveries(w.account.id, { outbound: rec.outbound });
    }
    const rows = await deliveryRows(w.account.id);
    expect(rows).toHaveLength(6);
    expect(rows.every((r) => r.status === "succeeded" && r.attempts === 3)).toBe(true);
    const delivered = rec.requests.slice(-6);
    const ids = delivered.map((r) => r.headers.get("x-service-delivery"));
    expect(new Set(ids).size).toBe(6);
    expect(new Set(delivered.map((r) => r.json.name))).toEqual(
      new Set(Array.from({ length: 6 }, (_, i) => `Down ${i}`)),
    );
  });

  it("makes one attempt when the queue hands the same delivery over twice", async () => {
    const d = await oneDelivery();
    await consume(
      [
        { kind: "delivery", id: d.delivery.id },
        { kind: "delivery", id: d.delivery.id },
      ],
      { outbound: d.rec.outbound },
    );
    expect(d.rec.requests).toHaveLength(1);
  });

  it("writes no second delivery when an event is processed twice", async () => {
    const d = await oneDelivery();
    await processEvents(d.account.id, 0, { outbound: d.rec.outbound });
    expect(await deliveryRows(d.account.id)).toHaveLength(1);
  });
});

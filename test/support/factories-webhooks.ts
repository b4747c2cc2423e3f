import { createExecutionContext, createMessageBatch, env, getQueueResult } from "cloudflare:test";
import { and, asc, eq, gt, inArray } from "drizzle-orm";
import * as t from "../../worker/db/schema";
import type { Bindings } from "../../worker/env";
import { type ConsumerOptions, consumeBatch } from "../../worker/events/consumer";
import type { QueueMessage } from "../../worker/events/queue-messages";
import { createLogger } from "../../worker/lib/logger";
import type { Outbound } from "../../worker/lib/outbound";
import { db } from "./factories";
import { api } from "./http";

/** What a receiver got: the request as sent (body read once, headers kept). */
export type Received = {
  url: string;
  headers: Headers;
  body: string;
  json: any;
  redirect: Request["redirect"];
  signal: AbortSignal;
};

/** How the fake receiver answers the n-th request (0-based) it sees. */
export type Answer = (req: Received, n: number) => Response | Promise<Response>;

/** How the fake resolver answers a DNS-over-HTTPS lookup: the addresses, or an Error (a failure). */
export type DnsAnswer = (name: string, type: "A" | "AAAA") => string[] | Error;

/** Every name is public: one A record, no AAAA. */
export const publicDns: DnsAnswer = (_name, type) => (type === "A" ? ["93.184.216.34"] : []);

/**
 * The resolver's half of a faked outbound: the DoH JSON answer to a cloudflare-dns.com lookup
 * (an Error thrown by `dns` is a network failure), or null for any other request.
 */
export function dohResponse(request: Request, dns: DnsAnswer): Response | null {
  const url = new URL(request.url);
  if (url.hostname !== "cloudflare-dns.com" || url.pathname !== "/dns-query") {
    return null;
  }
  const name = url.searchParams.get("name") ?? "";
  const type = url.searchParams.get("type") === "AAAA" ? "AAAA" : "A";
  const answer = dns(name, type);
  if (answer instanceof Error) {
    throw answer;
  }
  const Answer = answer.map((data) => ({ name, type: type === "A" ? 1 : 28, TTL: 60, data }));
  return Response.json(
    { Status: 0, Answer },
    { headers: { "content-type": "application/dns-json" } },
  );
}

/**
 * The recording outbound (STYLE §3.8): the only faked boundary. It records every request the
 * consumer makes and answers as told (200 by default); an Error thrown by `answer` is a network
 * failure, a DOMException "TimeoutError" a timeout. DNS-over-HTTPS lookups (the host check
 * before each send) are answered by `dns` (every name public unless told) and recorded apart,
 * in `lookups`.
 */
export function recordingOutbound(answer: Answer = () => new Response("ok"), dns = publicDns) {
  const requests: Received[] = [];
  const lookups: string[] = [];
  const outbound: Outbound = async (request) => {
    const doh = dohResponse(request, (name, type) => {
      lookups.push(`${type} ${name}`);
      return dns(name, type);
    });
    if (doh) {
      return doh;
    }
    const body = await request.text();
    const received = {
      url: request.url,
      headers: request.headers,
      body,
      json: JSON.parse(body),
      redirect: request.redirect,
      signal: request.signal,
    };
    requests.push(received);
    return answer(received, requests.length - 1);
  };
  return { outbound, requests, lookups };
}

let messageSeq = 0;

/**
 * Runs the queue consumer over `bodies` as one batch (with `bindings`, e.g. a counting DB);
 * returns the queue's ack/retry verdicts.
 */
export async function consume(
  bodies: QueueMessage[],
  opts: ConsumerOptions = {},
  bindings: Bindings = env as Bindings,
) {
  const batch = createMessageBatch<QueueMessage>(
    "parley-events",
    bodies.map((body) => ({ id: `m${++messageSeq}`, timestamp: Date.now(), attempts: 1, body })),
  );
  const ctx = createExecutionContext();
  // getQueueResult reports which messages were retried, not their delays: note those here.
  const delays = new Map<string, number | undefined>();
  for (const message of batch.messages) {
    const retry = message.retry.bind(message);
    Object.assign(message, {
      retry: (o?: QueueRetryOptions) => {
        delays.set(message.id, o?.delaySeconds);
        retry(o);
      },
    });
  }
  await consumeBatch(batch, bindings, { log: createLogger({}, () => {}), ...opts });
  const result = await getQueueResult(batch, ctx);
  const ids = batch.messages.map((m) => m.id);
  return {
    acked: result.explicitAcks.length,
    retries: result.retryMessages.map((r) => ({
      body: bodies[ids.indexOf(r.msgId)],
      delaySeconds: delays.get(r.msgId),
    })),
  };
}

export const outboxRows = (accountId: number, afterId = 0) =>
  db()
    .select()
    .from(t.eventOutbox)
    .where(and(eq(t.eventOutbox.accountId, accountId), gt(t.eventOutbox.id, afterId)))
    .orderBy(asc(t.eventOutbox.id))
    .all();

export const deliveryRows = (accountId: number) =>
  db()
    .select()
    .from(t.webhookDeliveries)
    .where(eq(t.webhookDeliveries.accountId, accountId))
    .orderBy(asc(t.webhookDeliveries.id))
    .all();

/** The account's outbox events after `afterId`, through the consumer (deliveries are written). */
export async function processEvents(accountId: number, afterId = 0, opts: ConsumerOptions = {}) {
  const rows = await outboxRows(accountId, afterId);
  if (rows.length > 0) {
    await consume(
      rows.map((r) => ({ kind: "event", id: r.id })),
      opts,
    );
  }
  return rows;
}

/** "Time passes": the deliveries become due now. */
export const makeDue = (ids: number[]) =>
  db()
    .update(t.webhookDeliveries)
    .set({ nextAttemptAt: 0 })
    .where(inArray(t.webhookDeliveries.id, ids));

/** One attempt of each open (pending or retrying) delivery of the account. */
export async function attemptOpenDeliveries(accountId: number, opts: ConsumerOptions) {
  const open = (await deliveryRows(accountId)).filter(
    (d) => d.status === "pending" || d.status === "retrying",
  );
  if (open.length === 0) {
    return { acked: 0, retries: [] };
  }
  await makeDue(open.map((d) => d.id));
  return consume(
    open.map((d) => ({ kind: "delivery", id: d.id })),
    opts,
  );
}

export async function createWebhook(token: string, accountId: number, body: unknown) {
  const res = await api(`/api/v1/accounts/${accountId}/webhooks`, { method: "POST", token, body });
  if (res.status !== 200) {
    throw new Error(`webhook not created: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return res.body as { id: number; secret: string; url: string; [k: string]: any };
}

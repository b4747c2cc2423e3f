import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Bindings } from "../../worker/env";
import { countingDb } from "../support/counting-db";
import {
  addInboxMember,
  createAccount,
  createAdmin,
  createAgent,
  createInbox,
} from "../support/factories";
import { createConversationIn } from "../support/factories-conversations";
import { consume, outboxRows } from "../support/factories-webhooks";
import { api } from "../support/http";

/**
 * An agent's messages in one conversation of an API inbox with no webhook, rule or bot (the
 * realtime bench's room): the events of a queue batch share their reads.
 */
async function agentMessages(n: number, opts: { participant?: boolean } = {}) {
  const account = await createAccount();
  const admin = await createAdmin(account.id);
  const inbox = await createInbox(account.id);
  const { conversation } = await createConversationIn(account.id, inbox.id);
  const base = `/api/v1/accounts/${account.id}/conversations/${conversation.displayId}`;
  if (opts.participant) {
    const agent = await createAgent(account.id);
    await addInboxMember(inbox.id, agent.id);
    const res = await api(`${base}/participants`, {
      method: "POST",
      token: admin.token,
      body: { user_ids: [agent.id] },
    });
    expect(res.status).toBe(200);
  }
  const after = (await outboxRows(account.id)).at(-1)?.id ?? 0;
  for (let i = 0; i < n; i++) {
    const res = await api(`${base}/messages`, { token: admin.token, body: { content: `m${i}` } });
    expect(res.status).toBe(200);
  }
  const rows = await outboxRows(account.id, after);
  return rows.filter((r) => r.name === "message_created").map((r) => r.id);
}

/** D1 calls the registered listeners make for one batch of `ids`. */
async function callsFor(ids: number[]) {
  const counting = countingDb(env as Bindings);
  const result = await consume(
    ids.map((id) => ({ kind: "event" as const, id })),
    {},
    counting.env,
  );
  expect(result.acked).toBe(ids.length);
  return counting.counts.calls;
}

describe("the consumer's listeners read D1 per batch, not per event", () => {
  it("a batch of 40 agent messages in one conversation costs a few D1 calls, not a few per event", async () => {
    const ids = await agentMessages(40);
    expect(ids).toHaveLength(40);
    const calls = await callsFor(ids);
    console.log(`D1 calls for 40 message_created events (no receivers): ${calls}`);
    expect(calls).toBeLessThanOrEqual(12);
  });
});

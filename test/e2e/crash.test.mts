// Nothing lost on a crash (issue 25, point 4), as a user would see it: a burst of socket
// messages into one conversation, `wrangler dev` killed with SIGKILL (workerd and all) in its
// middle, started again on the same state, every message not acked sent again with its echo_id.
// D1 must then hold every acked message once, with its ack's id and seq, seqs without gaps, one
// message_created outbox row each, and the site owner's receiver must get each message's
// webhook under one delivery id. The bench's kill step (npm run bench -- realtime) is the same
// check at 1,500 messages.
import { createServer } from "node:http";
import { describe, expect, it } from "vitest";
import { SEED } from "../bench/realtime.mjs";
import { measureKill } from "../bench/realtime-kill.mjs";
import { freePort } from "./harness.mts";

const MESSAGES = 240;
const TOKEN = "benchRealtimeToken000001";

/** The site owner's webhook receiver: message id → the delivery ids it came under. */
async function startReceiver() {
  const deliveries = new Map<number, Set<string>>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
        event: string;
        id: number;
      };
      if (body.event === "message_created") {
        const ids = deliveries.get(body.id) ?? new Set<string>();
        ids.add(String(req.headers["x-service-delivery"]));
        deliveries.set(body.id, ids);
      }
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/hook`,
    deliveries,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("a crash in the middle of a burst", () => {
  it("loses, doubles and reorders nothing that was acked, and sends each webhook once", {
    timeout: 600_000,
  }, async () => {
    const receiver = await startReceiver();
    const seed = `${SEED}
INSERT INTO webhooks (account_id, url, name, subscriptions, secret) VALUES (1, '${receiver.url}', 'crash', '["message_created"]', 'crash-secret');`;
    try {
      const result = await measureKill(
        await freePort(),
        seed,
        `/api/v1/accounts/1/conversations/1/live?api_access_token=${TOKEN}`,
        {
          messages: MESSAGES,
          killAfter: MESSAGES / 4,
          name: "e2e-crash",
          // The sweep relays again an event whose listeners have not run 10 s after its relay
          // (deployed: 30 min): a local queue keeps its messages in memory, so the kill loses
          // those it held.
          vars: { PARLEY_ALLOW_LOOPBACK_WEBHOOKS: "1", OUTBOX_REDELIVER_SECONDS: "10" },
          args: ["--test-scheduled"],
          // The webhooks leave through the queue behind D1: wait for all of them (3 min at
          // most). An outbox row committed just before the kill was never relayed by its own
          // writer: the cron's sweep sends it once it is 30 s old. Miniflare never fires crons
          // by itself; tick it as the deployed cron (and `npm start`) would, more often.
          beforeStop: async (base: string) => {
            for (let end = Date.now() + 180_000, tick = 0; Date.now() < end; tick++) {
              if (receiver.deliveries.size >= MESSAGES) {
                return;
              }
              if (tick % 25 === 0) {
                await (
                  await fetch(`${base}/__scheduled?cron=${encodeURIComponent("* * * * *")}`)
                ).arrayBuffer();
              }
              await new Promise((r) => setTimeout(r, 200));
            }
          },
        },
      );
      // The kill came mid-burst: some acked before it, the rest after the restart.
      expect(result.ackedBeforeKill).toBeGreaterThanOrEqual(MESSAGES / 4);
      expect(result.ackedBeforeKill).toBeLessThan(MESSAGES);
      expect(result).toMatchObject({
        acked: MESSAGES,
        rows: MESSAGES,
        lost: 0,
        wrong: 0,
        duplicated: 0,
        gaps: 0,
        outboxWrong: 0,
      });
      expect(receiver.deliveries.size).toBe(MESSAGES);
      const twice = [...receiver.deliveries].filter(([, ids]) => ids.size !== 1);
      expect(twice).toEqual([]);
    } finally {
      await receiver.stop();
    }
  });
});

// Nothing lost on a crash: a burst of socket messages into one conversation, the server killed
// with SIGKILL (wrangler dev and workerd) in the middle of it, started again on the same state,
// every message not acked sent again with its echo_id. Then D1 must hold every acked message
// exactly once, with the id and seq its ack gave, seqs 1..n without gaps, and exactly one
// message_created outbox row per message.

import { readdirSync } from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { freshDatabase, startServer } from "./lib.mjs";
import { sender } from "./realtime-ws.mjs";

const MESSAGES = 1500;
const SOCKETS = 8;
const IN_FLIGHT = 8;
/** The kill comes once this many acks are in. */
const KILL_AFTER_ACKS = 300;

/** Sends `echoes` over `SOCKETS` sockets; `acks` gets echo → ack; stops on the first failure. */
async function burst(url, echoes, acks, onAck = () => {}) {
  // `sender`'s sends fail once its socket closes (the server died).
  const senders = await Promise.all(Array.from({ length: SOCKETS }, () => sender(url)));
  let next = 0;
  await Promise.all(
    senders.flatMap((s) =>
      Array.from({ length: IN_FLIGHT }, async () => {
        while (next < echoes.length) {
          const echo = echoes[next++];
          try {
            acks.set(echo, await s.send(echo, echo));
            onAck(acks.size);
          } catch {
            return;
          }
        }
      }),
    ),
  );
  for (const s of senders) {
    s.close();
  }
}

function d1File(dir) {
  const d = path.join(dir, "v3", "d1", "miniflare-D1DatabaseObject");
  const f = readdirSync(d).find((n) => n.endsWith(".sqlite") && n !== "metadata.sqlite");
  return path.join(d, f);
}

async function untilInD1(dir, n) {
  const db = new DatabaseSync(d1File(dir), { readOnly: true });
  const count = db.prepare("SELECT count(*) AS n FROM messages WHERE conversation_id = 1");
  try {
    for (const end = Date.now() + 30_000; Date.now() < end; ) {
      if (count.get().n >= n) {
        return;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    db.close();
  }
}

/**
 * The kill step. `options` (the e2e test's smaller run): `messages`, `killAfter` acks, `name` of
 * the state folder, server `vars` and wrangler `args`, and `beforeStop(base)`, awaited once D1
 * has every acked message, before the restarted server stops (e.g. until a receiver has the
 * webhooks).
 */
export async function measureKill(port, seed, wsPath, options = {}) {
  const {
    messages = MESSAGES,
    killAfter = KILL_AFTER_ACKS,
    name = "realtime-kill",
    vars = {},
    args = [],
    beforeStop = async () => {},
  } = options;
  const { dir } = freshDatabase(name, seed);
  const echoes = Array.from({ length: messages }, (_, i) => `kill-${i}`);
  const acks = new Map();
  let server = await startServer(dir, port, vars, { killable: true, args });
  let killed;
  await burst(`${server.base.replace("http", "ws")}${wsPath}`, echoes, acks, (n) => {
    if (n >= killAfter && !killed) {
      killed = server.kill();
    }
  });
  await killed;
  const ackedBeforeKill = acks.size;
  server = await startServer(dir, port, vars, { killable: true, args });
  try {
    // Everything not acked is sent again with the same echo_id: stored once, or answered with
    // what was stored before the kill.
    const rest = echoes.filter((e) => !acks.has(e));
    await burst(`${server.base.replace("http", "ws")}${wsPath}`, rest, acks);
    // Acks leave once the room's log has a message; D1 gets it behind: wait for it (30 s at
    // most) before stopping the server, as a client reading D1 would.
    await untilInD1(dir, acks.size);
    await beforeStop(server.base);
  } finally {
    await server.stop();
  }
  const db = new DatabaseSync(d1File(dir), { readOnly: true });
  const rows = db
    .prepare("SELECT id, seq, content FROM messages WHERE conversation_id = 1 ORDER BY seq")
    .all();
  const outbox = db
    .prepare(
      "SELECT json_extract(payload, '$.message_id') AS id, count(*) AS n FROM event_outbox WHERE name = 'message_created' GROUP BY 1",
    )
    .all();
  db.close();
  const byContent = new Map();
  for (const r of rows) {
    byContent.set(r.content, [...(byContent.get(r.content) ?? []), r]);
  }
  let lost = 0;
  let wrong = 0;
  for (const [echo, ack] of acks) {
    const found = byContent.get(echo) ?? [];
    if (found.length === 0) {
      lost++;
    } else if (found[0].id !== ack.id || found[0].seq !== ack.seq) {
      wrong++;
    }
  }
  const duplicated = [...byContent.values()].filter((r) => r.length > 1).length;
  const gaps = rows.filter((r, i) => r.seq !== i + 1).length;
  const outboxOf = new Map(outbox.map((o) => [o.id, o.n]));
  const outboxWrong = rows.filter((r) => outboxOf.get(r.id) !== 1).length;
  return {
    sent: messages,
    ackedBeforeKill,
    acked: acks.size,
    rows: rows.length,
    lost,
    wrong,
    duplicated,
    gaps,
    outboxWrong,
  };
}

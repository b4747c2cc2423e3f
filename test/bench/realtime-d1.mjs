// What the realtime benchmark reads straight from the local state of `wrangler dev` (read-only,
// beside the running server): when each acked message's row appeared in D1 (the lag from the ack
// to D1, the room's log being written behind), and how many D1 write transactions carried the
// messages (each account's log writer, and each room for its own writes, counts its batches in its
// storage: `d1_batches`, `d1_messages`; the rooms count the groups that read D1 before their
// commit: `d1_reads`).
import { readdirSync } from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { deserialize } from "node:v8";
import { summarize } from "./realtime-ws.mjs";

const POLL_MS = 5;

function sqliteFiles(dir) {
  try {
    return readdirSync(dir)
      .filter((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite")
      .map((f) => path.join(dir, f));
  } catch {
    return [];
  }
}

/**
 * Watches the server's D1 file: `acked(id)` notes an ack's time, the poller the time each row was
 * first seen (every 5 ms); `lag()` summarises seen − acked per message (0 when the row was there
 * before its ack, as when the ack waits for D1).
 */
export function watchD1(stateDir) {
  const [file] = sqliteFiles(path.join(stateDir, "v3", "d1", "miniflare-D1DatabaseObject"));
  const db = new DatabaseSync(file, { readOnly: true });
  const newer = db.prepare("SELECT id FROM messages WHERE id > ? ORDER BY id");
  const seen = new Map();
  const acks = new Map();
  /** Acked ids not seen in D1 yet: ids are leased by block, so a lower one may come later. */
  const pending = new Set();
  let last = 0;
  const poll = () => {
    const now = performance.now();
    let floor = last;
    for (const id of pending) {
      floor = Math.min(floor, id - 1);
    }
    for (const { id } of newer.all(floor)) {
      if (!seen.has(id)) {
        seen.set(id, now);
      }
      pending.delete(id);
      last = Math.max(last, id);
    }
  };
  const timer = setInterval(poll, POLL_MS);
  return {
    acked(id) {
      acks.set(id, performance.now());
      if (!seen.has(id)) {
        pending.add(id);
      }
    },
    /** Stops watching once every acked row is seen (15 s at most); the lag of each, in ms. */
    async lag() {
      // The rooms write their logs to D1 behind the acks: give the last ones time to land.
      for (const end = performance.now() + 15_000; pending.size > 0 && performance.now() < end; ) {
        await new Promise((r) => setTimeout(r, 20));
      }
      clearInterval(timer);
      poll();
      db.close();
      const lags = [];
      let missing = 0;
      for (const [id, at] of acks) {
        const found = seen.get(id);
        if (found === undefined) {
          missing++;
        } else {
          lags.push(Math.max(0, found - at));
        }
      }
      return { ...summarize(lags), missing };
    },
  };
}

/**
 * The D1 write transactions of the messages and the messages they carried: the account log
 * writers' (each room's log, many rooms a transaction) and the rooms' own (messages with files),
 * summed; the groups that read D1 before their commit are the rooms'.
 */
export function d1Writes(stateDir) {
  let batches = 0;
  let messages = 0;
  let reads = 0;
  const objects = ["parley-ConversationRoom", "parley-LogWriter"].map((name) =>
    path.join(stateDir, "v3", "do", name),
  );
  for (const file of objects.flatMap(sqliteFiles)) {
    const db = new DatabaseSync(file, { readOnly: true });
    try {
      const get = db.prepare("SELECT value FROM _cf_KV WHERE key = ?");
      const read = (key) => {
        const row = get.get(key);
        return row ? Number(deserialize(Buffer.from(row.value))) : 0;
      };
      batches += read("d1_batches");
      messages += read("d1_messages");
      reads += read("d1_reads");
    } catch {
      // an object that never wrote has no KV table
    } finally {
      db.close();
    }
  }
  return {
    batches,
    messages,
    reads,
    perThousand: messages > 0 ? (batches * 1000) / messages : 0,
  };
}

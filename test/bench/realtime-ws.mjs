// WebSocket clients of the realtime benchmark: listeners that time arrivals, senders that
// pipeline message.create frames and wait for their acks, and the bare Node relay baseline.
import { WebSocketServer } from "ws";
import { percentile } from "./lib.mjs";

/** One conversation's load: its listeners, the sequential sends timed, the sustained burst. */
export const LISTENERS = 100;
export const LATENCY_MESSAGES = 300;
export const WARMUP = 30;
export const BURST_MESSAGES = 3000;
export const SENDERS = 16;
export const IN_FLIGHT_PER_SENDER = 8;
/** Sequential sends a socket makes at most (an agent socket's frame budget bursts to 200). */
export const SENDS_PER_SOCKET = 150;

/** A socket message's frames: one frame, or a batch (a JSON array). */
export function framesOf(raw) {
  const parsed = JSON.parse(String(raw));
  return Array.isArray(parsed) ? parsed : [parsed];
}

export function summarize(latencies) {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.at(-1),
  };
}

export const open = (url) =>
  new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.onopen = () => resolve(ws);
    ws.onerror = (e) => reject(new Error(`${url}: ${e.message ?? "socket error"}`));
  });

/**
 * `n` sockets; each records when it first saw each text (`hit(frame)` → {text, order} or null)
 * and the order values in arrival order, to find reorderings.
 */
export async function listeners(url, n, hit) {
  const arrivals = Array.from({ length: n }, () => new Map());
  const orders = Array.from({ length: n }, () => []);
  /** Per text: how many sockets have it, and who waits for all of them. */
  const counts = new Map();
  const waiters = new Map();
  const sockets = await Promise.all(arrivals.map(() => open(url)));
  sockets.forEach((ws, i) => {
    ws.onmessage = (e) => {
      const now = performance.now();
      for (const frame of hit.raw ? [e.data] : framesOf(e.data)) {
        const h = hit(frame);
        if (h) {
          if (!arrivals[i].has(h.text)) {
            counts.set(h.text, (counts.get(h.text) ?? 0) + 1);
          }
          arrivals[i].set(h.text, now);
          orders[i].push(h.order);
          if (counts.get(h.text) === n) {
            waiters.get(h.text)?.();
          }
        }
      }
    };
  });
  const latest = (text) => Math.max(...arrivals.map((m) => m.get(text)));
  // Resolved by the last arrival, not by polling: a busy-waiting client took a core of the
  // machine the server shares, and slowed what it measured.
  const waitAll = (text, timeoutMs = 10_000) =>
    new Promise((resolve, reject) => {
      if (counts.get(text) === n) {
        resolve(latest(text));
        return;
      }
      const timer = setTimeout(() => {
        waiters.delete(text);
        reject(new Error(`${text}: ${counts.get(text) ?? 0}/${n} listeners got it`));
      }, timeoutMs);
      waiters.set(text, () => {
        clearTimeout(timer);
        waiters.delete(text);
        resolve(latest(text));
      });
    });
  const reordered = () => orders.filter((o) => o.some((v, i) => i > 0 && v <= o[i - 1])).length;
  const close = () => {
    for (const s of sockets) {
      s.close();
    }
  };
  return { sockets, arrivals, waitAll, reordered, close };
}

/**
 * A socket that sends message.create frames and resolves each with its ack; errors reject.
 * Other frames go to `onFrame`.
 */
export async function sender(url, onFrame = () => {}) {
  const ws = await open(url);
  const waiting = new Map();
  const fail = (err) => {
    for (const { reject } of waiting.values()) {
      reject(err);
    }
    waiting.clear();
  };
  ws.onmessage = (e) => {
    for (const f of framesOf(e.data)) {
      const echo = f.data?.echo_id;
      if ((f.event === "ack" || f.event === "error") && echo && waiting.has(echo)) {
        const { resolve, reject } = waiting.get(echo);
        waiting.delete(echo);
        f.event === "ack"
          ? resolve(f.data)
          : reject(new Error(`${f.data.code}: ${f.data.message}`));
      } else if (f.event === "error" && !echo) {
        // An error naming no echo_id (the frame budget refusing a frame too large to read for
        // one) answers none of the sends: they fail, rather than wait for ever.
        fail(new Error(`${f.data?.code}: ${f.data?.message}`));
      } else {
        onFrame(f);
      }
    }
  };
  // A socket that closed or broke (the server died) fails what it still waits for, and what
  // is sent after.
  ws.onclose = () => fail(new Error("sender socket closed"));
  ws.onerror = () => fail(new Error("sender socket failed"));
  let n = 0;
  const send = (content, echo = `e${++n}-${Math.random().toString(36).slice(2)}`) =>
    new Promise((resolve, reject) => {
      if (ws.readyState !== WebSocket.OPEN) {
        reject(new Error("sender socket closed"));
        return;
      }
      waiting.set(echo, { resolve, reject });
      ws.send(JSON.stringify({ type: "message.create", echo_id: echo, content }));
    });
  return { ws, send, close: () => ws.close() };
}

/** The sockets `sequentialSenders` opens for `total` sends (the relay's step opens as many). */
export const socketsFor = (total) => Math.ceil(total / SENDS_PER_SOCKET);

/**
 * Senders for `total` sequential sends, opened before the first: each takes SENDS_PER_SOCKET
 * sends in turn, within an agent socket's frame budget (a burst of 200, then 100 a second), so
 * the sequential steps measure the path, not the limit, however fast the machine.
 */
export async function sequentialSenders(url, total) {
  const all = await Promise.all(Array.from({ length: socketsFor(total) }, () => sender(url)));
  let i = 0;
  return {
    send: (text) => (all[Math.floor(i++ / SENDS_PER_SOCKET)] ?? all.at(-1)).send(text),
    close: () => {
      for (const s of all) {
        s.close();
      }
    },
  };
}

/** The baseline: a bare Node `ws` relay (receive, send to every other client, no storage). */
export async function startRelay(port) {
  const wss = new WebSocketServer({ host: "127.0.0.1", port });
  wss.on("connection", (ws) => {
    ws.on("message", (data, isBinary) => {
      for (const client of wss.clients) {
        if (client !== ws && client.readyState === 1) {
          client.send(data, { binary: isBinary });
        }
      }
    });
  });
  await new Promise((r) => wss.once("listening", r));
  return { url: `ws://127.0.0.1:${port}`, close: () => new Promise((r) => wss.close(r)) };
}

/**
 * Sequential sends, each timed until every listener has it; `sends`: when each timed one
 * started (epoch ms, as the server's spans are) and how long it took.
 */
export async function latency(send, l, prefix) {
  const sends = [];
  for (let i = 0; i < WARMUP + LATENCY_MESSAGES; i++) {
    const text = `${prefix}-${i}`;
    const t0 = performance.now();
    await send(text);
    const last = await l.waitAll(text);
    if (i >= WARMUP) {
      sends.push({ at: performance.timeOrigin + t0, ms: last - t0 });
    }
  }
  return { ...summarize(sends.map((s) => s.ms)), sends };
}

/** 16 sockets, each with up to 8 sends awaiting their ack, until 3,000 messages are stored. */
export async function socketBurst(url, l, onAck = () => {}) {
  const senders = await Promise.all(Array.from({ length: SENDERS }, () => sender(url)));
  const texts = Array.from({ length: BURST_MESSAGES }, (_, i) => `burst-${i}`);
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    senders.flatMap((s) =>
      Array.from({ length: IN_FLIGHT_PER_SENDER }, async () => {
        while (next < texts.length) {
          const ack = await s.send(texts[next++]);
          onAck(ack);
        }
      }),
    ),
  );
  const seconds = (performance.now() - t0) / 1000;
  // Every listener has every text, or a minute passed. The last text sent need not arrive last:
  // senders run side by side, so its seq may be below others', and counting once it had arrived
  // found frames still on their way to a busy listener.
  const deadline = performance.now() + 60_000;
  for (const text of texts) {
    await l.waitAll(text, Math.max(1, deadline - performance.now())).catch(() => undefined);
  }
  for (const s of senders) {
    s.close();
  }
  const received = l.arrivals.map((m) => texts.filter((t) => m.has(t)).length);
  return {
    seconds,
    messages: BURST_MESSAGES,
    perSecond: BURST_MESSAGES / seconds,
    minReceived: Math.min(...received),
  };
}

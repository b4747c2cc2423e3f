// WebSocket clients of the realtime benchmark: listeners that time arrivals, senders that
// pipeline message.create frames and wait for their acks, and the bare Node relay baseline.
import { WebSocketServer } from "ws";
import { percentile } from "./lib.mjs";

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
  const sockets = await Promise.all(arrivals.map(() => open(url)));
  sockets.forEach((ws, i) => {
    ws.onmessage = (e) => {
      const now = performance.now();
      for (const frame of hit.raw ? [e.data] : framesOf(e.data)) {
        const h = hit(frame);
        if (h) {
          arrivals[i].set(h.text, now);
          orders[i].push(h.order);
        }
      }
    };
  });
  const waitAll = (text, timeoutMs = 10_000) =>
    new Promise((resolve, reject) => {
      const deadline = Date.now() + timeoutMs;
      const check = () => {
        if (arrivals.every((m) => m.has(text))) {
          resolve(Math.max(...arrivals.map((m) => m.get(text))));
        } else if (Date.now() > deadline) {
          const got = arrivals.filter((m) => m.has(text)).length;
          reject(new Error(`${text}: ${got}/${n} listeners got it`));
        } else {
          setImmediate(check);
        }
      };
      check();
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
  ws.onmessage = (e) => {
    for (const f of framesOf(e.data)) {
      const echo = f.data?.echo_id;
      if ((f.event === "ack" || f.event === "error") && echo && waiting.has(echo)) {
        const { resolve, reject } = waiting.get(echo);
        waiting.delete(echo);
        f.event === "ack"
          ? resolve(f.data)
          : reject(new Error(`${f.data.code}: ${f.data.message}`));
      } else {
        onFrame(f);
      }
    }
  };
  let n = 0;
  const send = (content, echo = `e${++n}-${Math.random().toString(36).slice(2)}`) =>
    new Promise((resolve, reject) => {
      waiting.set(echo, { resolve, reject });
      ws.send(JSON.stringify({ type: "message.create", echo_id: echo, content }));
    });
  return { ws, send, close: () => ws.close() };
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

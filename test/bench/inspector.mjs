// A DevTools protocol session with the Worker's isolate under `wrangler dev --inspector-port`:
// the profile tool's CPU profiles, the realtime bench's timing spans (console lines).
import WebSocket from "ws";

/** Connects to the isolate behind wrangler's inspector proxy on `port`. */
export async function inspect(port) {
  const targets = await (await fetch(`http://127.0.0.1:${port}/json`)).json();
  const target = targets.find((t) => t.webSocketDebuggerUrl) ?? targets[0];
  const ws = new WebSocket(target.webSocketDebuggerUrl);
  // The `ws` client: wrangler's inspector proxy refuses the built-in one.
  await new Promise((resolve, reject) => {
    ws.once("open", resolve);
    ws.once("error", reject);
  });
  // Far from the ids of the commands wrangler's proxy sends itself (their answers reach us too).
  let id = 1_000_000;
  const waiting = new Map();
  const listeners = new Map();
  ws.on("message", (data) => {
    const msg = JSON.parse(String(data));
    if (msg.id && waiting.has(msg.id)) {
      waiting.get(msg.id)(msg);
      waiting.delete(msg.id);
    } else if (msg.method) {
      listeners.get(msg.method)?.(msg.params);
    }
  });
  const call = (method, params = {}) =>
    new Promise((resolve, reject) => {
      const n = ++id;
      waiting.set(n, (msg) =>
        msg.error ? reject(new Error(msg.error.message)) : resolve(msg.result),
      );
      ws.send(JSON.stringify({ id: n, method, params }));
    });
  /** One handler per event method, e.g. "Runtime.consoleAPICalled". */
  const on = (method, handler) => listeners.set(method, handler);
  return { call, on, close: () => ws.close() };
}

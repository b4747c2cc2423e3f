// Which work behind the acks the slowest sends met. The measured server runs with LOG_TIMINGS=1:
// the log writer logs each D1 transaction and the queue consumer each batch as a `timing` span
// (worker/lib/spans.ts). The spans are read from the isolate's console over the DevTools
// protocol, not from wrangler's output, which the bench keeps quiet (--log-level error). Each
// send over the target is then put beside the spans that overlap it.
import { inspect } from "./inspector.mjs";
import { percentile } from "./lib.mjs";

/** Collects the isolate's timing spans: `{ span, at, ms }` (at: epoch ms). */
export async function watchSpans(port) {
  const session = await inspect(port);
  const spans = [];
  session.on("Runtime.consoleAPICalled", ({ args }) => {
    const text = args?.[0]?.value;
    if (typeof text !== "string" || !text.includes('"msg":"timing"')) {
      return;
    }
    const line = JSON.parse(text);
    spans.push({ span: line.span, at: line.at, ms: line.ms });
  });
  await session.call("Runtime.enable");
  return { spans: () => [...spans], close: () => session.close() };
}

/** workerd's clock moves only between I/O: a span may end a millisecond past its last sample. */
const SLACK_MS = 1;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/**
 * The sends (`{ at, ms }`) over `limit` ms, each put beside what it overlapped: a consumer batch
 * (the longer kind) before a D1 transaction; what the p99 send (as `summarize` picks it) met;
 * and the spans within the sends' time.
 */
export function heldBack(sends, spans, limit) {
  const from = Math.min(...sends.map((s) => s.at));
  const to = Math.max(...sends.map((s) => s.at + s.ms));
  const within = spans.filter((x) => x.at + x.ms >= from && x.at <= to);
  const meets = (send, kind) =>
    within.some(
      (x) => x.span === kind && x.at <= send.at + send.ms && x.at + x.ms + SLACK_MS >= send.at,
    );
  const met = (send) =>
    meets(send, "events batch") ? "consumer" : meets(send, "d1 transaction") ? "writer" : "neither";
  const over = sends.filter((s) => s.ms > limit).map(met);
  const count = (kind) => over.filter((k) => k === kind).length;
  const p99 = percentile(
    [...sends].sort((a, b) => a.ms - b.ms),
    99,
  );
  const kind = (name) => within.filter((x) => x.span === name).map((x) => x.ms);
  return {
    sends: sends.length,
    over: over.length,
    consumer: count("consumer"),
    writer: count("writer"),
    neither: count("neither"),
    p99: p99 ? met(p99) : "neither",
    transactions: kind("d1 transaction"),
    batches: kind("events batch"),
  };
}

const MET = {
  consumer: "a queue consumer batch",
  writer: "a log-writer D1 transaction",
  neither: "neither",
};

/** What the sequential steps' slowest sends met, a line each (socket, HTTP). */
export function heldBackLines(room, relayP99, fmt) {
  const line = (name, sends, limit, limitName) => {
    const h = heldBack(sends, room.spans, limit);
    const t = h.transactions;
    const b = h.batches;
    return `  ${name}: ${h.over} of ${h.sends} sends over ${limitName}: ${h.consumer} beside a queue consumer batch, ${h.writer} beside a log-writer D1 transaction only, ${h.neither} beside neither; the p99 send met ${MET[h.p99]}; meanwhile ${t.length} D1 transactions (median ${fmt(median(t))} ms), ${b.length} consumer batches (median ${fmt(median(b))} ms)`;
  };
  return [
    line("socket", room.socket.sends, 3 * relayP99, "3× the relay's p99"),
    line("HTTP", room.http.sends, 2 * room.floor.latency.p99, "2× the floor's p99"),
  ];
}

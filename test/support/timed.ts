import { createExecutionContext, createMessageBatch, env, getQueueResult } from "cloudflare:test";
import worker from "../../worker";
import type {
  Bindings,
  CloseSessionsMessage,
  DrainMessage,
  TimedMessage,
  TimedQueueMessage,
} from "../../worker/env";

type Sent = TimedQueueMessage;

/** The Worker's env with a TIMED queue that keeps what the tick sends, for the test to deliver. */
export function recordingTimed(base: Bindings = env as Bindings) {
  const sent: TimedMessage[] = [];
  const drains: DrainMessage[] = [];
  const closes: CloseSessionsMessage[] = [];
  const keep = (body: Sent) =>
    body.task === "drain"
      ? drains.push(body)
      : body.task === "close_sessions"
        ? closes.push(body)
        : sent.push(body);
  const TIMED = {
    send: async (body: Sent) => {
      keep(body);
    },
    sendBatch: async (messages: { body: Sent }[]) => {
      for (const m of messages) {
        keep(m.body);
      }
    },
  } as unknown as Queue<Sent>;
  return { env: { ...base, TIMED }, sent, drains, closes };
}

let seq = 0;

/** Delivers `bodies` to the Worker's queue handler as one batch of the TIMED queue. */
export async function deliverTimed(bodies: Sent[], to: Bindings = env as Bindings) {
  const batch = createMessageBatch<Sent>(
    "parley-timed",
    bodies.map((body) => ({ id: `t${++seq}`, timestamp: Date.now(), attempts: 1, body })),
  );
  const ctx = createExecutionContext();
  await worker.queue(batch as never, to);
  return getQueueResult(batch, ctx);
}

const wrangler = Object.values(
  import.meta.glob<string>("../../wrangler.toml", {
    query: "?raw",
    import: "default",
    eager: true,
  }),
)[0] as string;

/** wrangler.toml's max_batch_size for parley-timed: what one consumer invocation gets at most. */
export const TIMED_BATCH_MESSAGES = Number(
  /queue = "parley-timed"\s*\nmax_batch_size = (\d+)/.exec(wrangler)?.[1] ?? Number.NaN,
);

/**
 * A tick as deployed: `task` finds what is due and sends it to the TIMED queue, then every
 * message it sent is delivered, in batches as the queue would. Answers what the task answered.
 */
export async function tick(
  task: (env: Bindings, now: number) => Promise<number>,
  now: number,
): Promise<number> {
  const recorded = recordingTimed();
  const sent = await task(recorded.env, now);
  await drain(recorded.sent);
  await drain(recorded.drains);
  return sent;
}

/** Delivers recorded messages in queue-sized batches. */
export async function drain(messages: Sent[]) {
  for (let i = 0; i < messages.length; i += TIMED_BATCH_MESSAGES) {
    await deliverTimed(messages.slice(i, i + TIMED_BATCH_MESSAGES));
  }
}

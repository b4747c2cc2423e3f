import type { QueueMessage } from "../env";

export type { QueueMessage };

/** Queue sendBatch takes at most 100 messages. */
const SEND_LIMIT = 100;

/**
 * Sends one message of `kind` per id, in sendBatch calls of at most 100; `sent` hears each chunk
 * once it went out (so a failure part-way leaves only the unsent ones to the caller's fallback).
 */
export async function sendToQueue(
  queue: Queue<QueueMessage>,
  kind: QueueMessage["kind"],
  ids: number[],
  opts: { delaySeconds?: number; sent?: (chunk: number[]) => unknown } = {},
): Promise<void> {
  const delay = opts.delaySeconds ? { delaySeconds: opts.delaySeconds } : {};
  for (let i = 0; i < ids.length; i += SEND_LIMIT) {
    const chunk = ids.slice(i, i + SEND_LIMIT);
    await queue.sendBatch(chunk.map((id) => ({ body: { kind, id }, ...delay })));
    await opts.sent?.(chunk);
  }
}

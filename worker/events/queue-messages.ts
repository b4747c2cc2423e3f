/**
 * What travels on the EVENTS queue: ids only, the consumer loads the rows. An outbox event is
 * fanned out into deliveries, and each delivery travels as its own message, so one slow or
 * dead receiver never holds up another's.
 */
export type QueueMessage = { kind: "event"; id: number } | { kind: "delivery"; id: number };

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

import type { Db } from "../db/client";
import type { Bindings } from "../env";
import { markSent } from "./queries";
import { sendToQueue } from "./queue-messages";

/**
 * Sends committed outbox rows to the queue and marks them sent. A failure leaves them unsent,
 * for the cron sweep; a crash after the send but before the mark only means a second relay,
 * which the consumer's idempotent handlers absorb.
 */
export const relayOutbox = (env: Bindings, db: Db, ids: number[], at: number) =>
  sendToQueue(env.EVENTS, "event", ids, { sent: (chunk) => markSent(db, chunk, at) });

import type { Db } from "../../db/client";
import { inSlices } from "../../lib/bind-limit";
import { isUniqueViolation } from "../../lib/db-errors";
import { findByIdempotencyKeys } from "../messages/queries";
import type { MessageIds } from "./message-ids";
import type { RoomSeq } from "./room-seq";
import type { Ready } from "./types";

const clash = (err: unknown, column: string) =>
  isUniqueViolation(err) &&
  new RegExp(`messages\\.${column}\\b`).test(`${err} ${(err as Error).cause ?? ""}`);

/**
 * A group D1 refused for what it already holds, sorted out: the messages to commit again, at
 * the head of the queue in the same order (seqs or ids taken by rows imported behind the room
 * are skipped; retries of stored keys are answered and left out). Null: nothing to repair; the
 * writer commits the messages one by one so one bad message does not fail its neighbours.
 */
export async function repairGroup(
  err: unknown,
  group: Ready[],
  seq: RoomSeq,
  ids: MessageIds,
  db: () => Db,
): Promise<Ready[] | null> {
  const conversationId = (group[0] as Ready).req.conversationId;
  if (clash(err, "seq")) {
    // D1 holds seqs the room did not write (an import): continue after them.
    await seq.fromD1(conversationId);
    return group;
  }
  if (clash(err, "id")) {
    // An id of the room's block was taken in D1 behind its back: lease above it.
    ids.discard();
    return group;
  }
  if (!clash(err, "idempotency_key")) {
    return null;
  }
  const keys = group.flatMap((p) => p.req.values.idempotencyKey ?? []);
  const found = (
    await Promise.all(inSlices(keys).map((k) => findByIdempotencyKeys(db(), conversationId, k)))
  ).flat();
  const byKey = new Map(found.map((row) => [row.idempotencyKey, row]));
  const rest = group.filter((p) => {
    const row = byKey.get(p.req.values.idempotencyKey ?? null);
    if (row) {
      p.resolve({ message: row, duplicate: true });
    }
    return !row;
  });
  return rest.length < group.length ? rest : null;
}

import type { Db } from "../../db/client";
import type { AttachmentRow, ConversationRow, MessageRow } from "../../db/schema";
import type { RoomHandoff } from "../../realtime/room-frames";
import type { Counters } from "../messages/queries";
import type { RoomConversationCache } from "./conversation-cache";
import { groupBatch } from "./group-batch";
import type { MessageIds } from "./message-ids";
import { type KeptKeys, keysOf } from "./queries.wal";
import type { Replicator } from "./replicator";
import type { RoomSeq } from "./room-seq";
import type { AppendRequest, Presented, Ready } from "./types";

/**
 * A group with files, committed straight to D1 after the log: attachment rows get their ids
 * from D1. One D1 transaction: the messages (leased ids, the room's seqs), their outbox rows,
 * facts and files; seqs are given back when it fails. Its outbox rows and feed frame go to the
 * account's writer like the log's (`RoomHandoff`, realtime/room-frames.ts), which sends them on.
 */
export class DirectCommit {
  constructor(
    private readonly db: () => Db,
    private readonly ids: MessageIds,
    private readonly seq: RoomSeq,
    private readonly keys: KeptKeys,
    private readonly replicator: Replicator,
    private readonly handoff: RoomHandoff,
    private readonly conversation: RoomConversationCache | undefined,
    private readonly written: (
      row: MessageRow,
      attachments: AttachmentRow[],
      req: AppendRequest,
      counters: Counters,
    ) => Presented,
    private readonly committed: (row: ConversationRow, views: Presented[], c: Counters) => void,
    /** The room's counters did not see this group: they are read again with the next one. */
    private readonly dropCounters: () => void,
    private readonly countBatch: (messages: number) => void,
  ) {}

  async commit(group: Ready[]): Promise<void> {
    await this.replicator.drain();
    const ids = await this.ids.take(group.length);
    const first = this.seq.current + 1;
    group.forEach((p, i) => {
      p.seq = this.seq.next();
      p.id = ids[i] as number;
    });
    this.seq.persist();
    const batch = await groupBatch(this.db(), group);
    const since = this.conversation?.mark() ?? 0;
    let results: unknown[][];
    try {
      results = (await this.db().batch(batch.statements as never)) as unknown[][];
    } catch (err) {
      this.countBatch(0);
      // Nothing of the group is stored: its seqs go to whatever commits next.
      this.seq.rewind(first - 1);
      throw err;
    }
    this.countBatch(group.length);
    this.dropCounters();
    const { stored, counters, conversation } = batch.read(results);
    this.keys.add(keysOf(stored.flatMap((s) => (s.row ? [{ row: s.row }] : []))));
    if (conversation) {
      this.conversation?.wrote(conversation, since);
    }
    this.handoff.sent(
      (group[0] as Ready).req.values.accountId,
      stored.flatMap((s) => s.eventIds),
    );
    const written: Presented[] = [];
    group.forEach((p, i) => {
      const { row, attachments } = stored[i] as (typeof stored)[number];
      if (!row) {
        p.reject(new Error(`message ${p.seq} was not stored`));
        return;
      }
      const views = this.written(row, attachments, p.req, counters);
      written.push(views);
      p.resolve({ message: row, duplicate: false, ...views });
    });
    if (conversation && written.length > 0) {
      this.committed(conversation, written, counters);
    }
    // The log is empty (drained above): the writer takes the hand-off alone.
    this.replicator.kick();
  }
}

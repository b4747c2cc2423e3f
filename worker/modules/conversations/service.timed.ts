import type { SQL } from "drizzle-orm";
import type { ConversationRow, ConversationStatus } from "../../db/schema";
import { commitMany } from "../../events/commit";
import type { Deps } from "../../events/deps";
import type { ConversationScope } from "./access";
import { statusActivity } from "./activity";
import { changedAttributes, changeEvents, firstRow } from "./events";
import { conversationHooks } from "./hooks";
import { type NewConversation, updateConversationIf } from "./queries";

/** One conversation of a batch of timed changes: to `status`, only while `guard` holds. */
export type TimedChange = {
  scope: ConversationScope;
  row: ConversationRow;
  status: Exclude<ConversationStatus, "snoozed">;
  guard: SQL;
  /** What else the change writes (a wake-up restarts the idle clock). */
  values?: Partial<NewConversation>;
};

/**
 * The service's own status changes of several conversations (the schedule's batches), as
 * `toggleStatus` makes one, but with every update and its events in ONE D1 batch: each update
 * happens only while its row still matches its guard, and only a change that happened records
 * events, then gets its activity note and its hooks (CSAT survey, assignment). All changes share
 * `deps` (one unit of work). Answers the rows as left: the same object where nothing changed.
 */
export async function changeStatusOfMany(
  deps: Deps,
  changes: TimedChange[],
): Promise<ConversationRow[]> {
  if (changes.length === 0) {
    return [];
  }
  const now = deps.now();
  const parts = changes.map(({ row, status, guard, values }) => {
    const write = { ...values, status, snoozedUntil: null, updatedAt: now };
    const changed = changedAttributes(row, { ...row, ...write });
    return {
      statements: [updateConversationIf(deps.db, row.id, write, guard)],
      events: changeEvents(row, changed).map((e) => ({ ...e, ifChanged: true })),
      conversation: (r: unknown[]) => firstRow<ConversationRow>(r),
    };
  });
  const results = await commitMany(deps, parts);
  const after = changes.map((c, i) => firstRow<ConversationRow>(results[i] ?? []) ?? c.row);
  // The status events leave (queue, live frames) while the notes are written.
  const flushed = deps.events.flush();
  await Promise.all(
    changes.map(async (c, i) => {
      const row = after[i] as ConversationRow;
      if (row === c.row) {
        return;
      }
      try {
        await statusActivity(c.scope, c.row, row);
        await conversationHooks().statusChanged(c.scope, c.row, row);
      } catch (error) {
        // The change is committed with its events; only its note or a hook is missing.
        deps.log.error("after a timed status change", { conversation: row.id, error });
      }
    }),
  );
  await flushed;
  return after;
}

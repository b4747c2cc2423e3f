import type { ConversationRow } from "../../db/schema";
import { commit } from "../../events/commit";
import type { ConversationScope } from "./access";
import { labelActivity, noteClock } from "./activity";
import { changeEvents, firstRow } from "./events";
import { labelsOf, replaceLabels, updateConversationRow } from "./queries";

/** Chatwoot parity: the posted labels replace the whole set; they need not exist. */
export async function setLabels(
  scope: ConversationScope,
  row: ConversationRow,
  titles: string[],
): Promise<string[]> {
  const { db } = scope.deps;
  const wanted = [...new Set(titles)].sort();
  const before = await labelsOf(db, row.id);
  const same = JSON.stringify(before) === JSON.stringify(wanted);
  const touch = updateConversationRow(db, row.id, {
    updatedAt: scope.deps.now(),
    ...noteClock(scope, !same),
  });
  const changed = { label_list: { previous_value: before, current_value: wanted } };
  const events = same ? [] : changeEvents(row, changed);
  const statements = [...replaceLabels(db, row.id, wanted), touch];
  await commit(scope.deps, statements, events, {
    conversation: (r) => firstRow<ConversationRow>(r, statements.length - 1),
  });
  await labelActivity(scope, row, before, wanted);
  return labelsOf(db, row.id);
}

export const listLabels = (scope: ConversationScope, row: ConversationRow) =>
  labelsOf(scope.deps.db, row.id);

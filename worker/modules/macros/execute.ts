import type { MacroRow } from "../../db/schema";
import { bindingMailer } from "../../lib/mail";
import { runActions, type StoredAction } from "../automation-rules/executor";
import { viewerOf } from "../conversations/policy";
import { visibleConversationIds } from "./queries";
import type { MacroScope } from "./service";

export type MacroResult = {
  conversation_id: number;
  status: "executed" | "not_found";
  failed_actions: string[];
};

/**
 * Chatwoot parity (MacrosExecutionJob, Macros::ExecutionService): the macro's actions on each
 * named conversation, performed as the caller: every change is theirs (its events say
 * performed_by the user, its activity message names them: "Conversation was marked resolved by
 * Ann"), and a conversation they may not see is skipped, as one of another account is, answered
 * not_found either way. Each conversation once, however often it is named, in the order given.
 * Which of them the caller may see is one query for all (loadConversationFor's rule: the
 * account's, in an inbox the caller sees); each action still reads its conversation as it is
 * then (runActions), since the previous action may have changed it.
 */
export async function executeMacro(
  scope: MacroScope,
  macro: MacroRow,
  displayIds: readonly number[],
): Promise<MacroResult[]> {
  const { deps } = scope;
  const run = crypto.randomUUID();
  const log = (entry: Record<string, unknown>) => {
    const { level, msg, ...fields } = entry;
    if (level === "error") {
      deps.log.error(String(msg ?? "macro"), fields);
    } else {
      deps.log.warn(String(msg ?? "macro"), fields);
    }
  };
  const mailer = bindingMailer(deps.env, log);
  const results: MacroResult[] = [];
  const wanted = [...new Set(displayIds)];
  const visible = await visibleConversationIds(deps.db, scope.account.id, viewerOf(scope), wanted);
  for (const displayId of wanted) {
    const conversationId = visible.get(displayId);
    if (conversationId === undefined) {
      results.push({ conversation_id: displayId, status: "not_found", failed_actions: [] });
      continue;
    }
    const failures = await runActions({
      scope: { ...scope, origin: deps.origin },
      actions: macro.actions as StoredAction[],
      conversationId,
      // A new key per call: running a macro twice is two runs, as in Chatwoot.
      key: `macro:${run}:${macro.id}:${conversationId}`,
      messageAttributes: {},
      mailer,
      log,
      logFields: { macro: macro.id, conversation: displayId },
    });
    results.push({
      conversation_id: displayId,
      status: "executed",
      failed_actions: failures.map((f) => f.action),
    });
  }
  return results;
}

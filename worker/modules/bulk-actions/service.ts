import type { ConversationRow } from "../../db/schema";
import { ApiError, invalidField } from "../../lib/errors";
import { accountMemberIds } from "../agents/queries";
import { accountTeamIds } from "../automation-rules/queries";
import { type ConversationScope, loadConversationFor } from "../conversations/access";
import { assign, toggleStatus } from "../conversations/service.actions";
import { listLabels, setLabels } from "../conversations/service.labels";
import type { BulkAction, BulkResult } from "./schema";

/** A refused change's reason: an ApiError's own message; anything else stays in the log. */
function reason(scope: ConversationScope, step: string, err: unknown): string {
  if (err instanceof ApiError) {
    return err.message;
  }
  scope.deps.log.error("bulk action change failed", { step, error: String(err) });
  return `${step} could not be applied`;
}

/** The named records once each, in the order given. */
export const uniqueIds = (ids: readonly number[]) => [...new Set(ids)];

/**
 * Chatwoot parity (BulkActionsController#validate_assignment_targets): an assignee or team that
 * is not the account's refuses the whole call (422), before anything changes.
 */
export async function checkTargets(scope: ConversationScope, input: BulkAction) {
  const { assignee_id: assigneeId, team_id: teamId } = input.fields ?? {};
  const { db } = scope.deps;
  if (typeof assigneeId === "number") {
    const found = await accountMemberIds(db, scope.account.id, [assigneeId]);
    if (!found.has(assigneeId)) {
      throw invalidField("fields.assignee_id", "is not an agent of this account");
    }
  }
  if (
    typeof teamId === "number" &&
    !(await accountTeamIds(db, scope.account.id, [teamId])).has(teamId)
  ) {
    throw invalidField("fields.team_id", "is not a team of this account");
  }
}

type Step = (row: ConversationRow) => Promise<unknown>;

/** What to do to each conversation, each step through the service a single change uses. */
function stepsFor(scope: ConversationScope, input: BulkAction): [string, Step][] {
  const steps: [string, Step][] = [];
  const add = input.labels?.add ?? [];
  const remove = input.labels?.remove ?? [];
  if (add.length > 0 || remove.length > 0) {
    steps.push([
      "labels",
      async (row) => {
        const current = await listLabels(scope, row);
        await setLabels(scope, row, [...current.filter((l) => !remove.includes(l)), ...add]);
      },
    ]);
  }
  const fields = input.fields ?? {};
  // Chatwoot drops a null status (BulkActionsJob#available_params); null ids unassign.
  if (fields.status) {
    const change = { status: fields.status, snoozed_until: input.snoozed_until ?? null };
    steps.push(["status", (row) => toggleStatus(scope, row, change)]);
  }
  if (fields.assignee_id !== undefined) {
    steps.push(["assignee_id", (row) => assign(scope, row, { assignee_id: fields.assignee_id })]);
  }
  if (fields.team_id !== undefined) {
    steps.push(["team_id", (row) => assign(scope, row, { team_id: fields.team_id })]);
  }
  return steps;
}

/**
 * Chatwoot parity (BulkActionsJob), each conversation as if changed by hand by the caller: the
 * same service functions as the single routes, so the same events, webhooks, activity messages
 * and reporting facts. Each step reloads the conversation (the previous one changed it); a
 * refused step is reported and the rest still run. A conversation the caller may not see (as
 * one of another account) is skipped as not_found.
 */
export async function bulkUpdateConversations(
  scope: ConversationScope,
  input: BulkAction,
): Promise<BulkResult[]> {
  const steps = stepsFor(scope, input);
  if (steps.length === 0) {
    throw invalidField("fields", "or labels must say what to change");
  }
  await checkTargets(scope, input);
  const results: BulkResult[] = [];
  for (const id of uniqueIds(input.ids)) {
    const errors: string[] = [];
    let found = true;
    for (const [name, step] of steps) {
      try {
        await step(await loadConversationFor(scope, id));
      } catch (err) {
        if (err instanceof ApiError && err.code === "not_found") {
          found = false;
          break;
        }
        errors.push(reason(scope, name, err));
      }
    }
    results.push({ id, status: found ? "updated" : "not_found", errors: found ? errors : [] });
  }
  return results;
}

import type { MacroRow } from "../../db/schema";
import { ApiError, invalidFields } from "../../lib/errors";
import type { AuditWho } from "../audit-logs/service";
import { auditedChanges, auditStatement, INSERTED_ID } from "../audit-logs/service";
import { actionProblems } from "../automation-rules/validate.actions";
import type { ConversationScope } from "../conversations/access";
import { viewerOf } from "../conversations/policy";
import { MACRO_ACTIONS } from "./actions";
import {
  countMacros,
  deleteMacroRow,
  findMacro,
  insertMacro,
  type NewMacro,
  updateMacroRow,
  visibleAttachmentIds,
  visibleMacros,
} from "./queries";
import { MAX_MACROS_PER_ACCOUNT, type MacroCreate, type MacroUpdate } from "./schema";

/** A macro request's caller: always a user (requireMember refuses bots). */
export type MacroScope = ConversationScope & { userId: number; who: AuditWho };

export const listMacros = (scope: MacroScope) =>
  visibleMacros(scope.deps.db, scope.account.id, scope.userId);

const isAuthor = (scope: MacroScope, macro: MacroRow) => macro.createdById === scope.userId;

/**
 * Chatwoot's MacroPolicy. Seeing and running: a global macro, or one's own personal macro;
 * anyone else's personal macro is not found (not even administrators see it). Changing: a
 * global macro, administrators only (403 for agents); a personal one, its author only.
 */
export async function loadMacro(
  scope: MacroScope,
  id: number,
  intent: "use" | "change",
): Promise<MacroRow> {
  const macro = await findMacro(scope.deps.db, scope.account.id, id);
  if (!macro || (macro.visibility === "personal" && !isAuthor(scope, macro))) {
    throw new ApiError("not_found");
  }
  if (intent === "change" && macro.visibility === "global" && scope.role !== "administrator") {
    throw new ApiError("forbidden");
  }
  return macro;
}

/** Chatwoot's Macro#set_visibility: an agent's macros are personal whatever they ask. */
const visibilityFor = (scope: MacroScope, asked: MacroRow["visibility"] | undefined) =>
  scope.role === "administrator" ? asked : asked === undefined ? undefined : "personal";

/**
 * send_attachment names files of the account's messages (Chatwoot's macros attach a file uploaded
 * to the macro instead; docs/agent-tools.md). Whoever saves the macro must be able to see each
 * file's conversation: an agent cannot send, through a macro, a file of an inbox they are not
 * in. The check is at saving, as Chatwoot's file belongs to the macro once attached: a global
 * macro's file goes out whoever runs it.
 */
async function attachmentProblems(scope: MacroScope, actions: MacroCreate["actions"]) {
  const wanted = actions.flatMap((a, i) =>
    a.action_name === "send_attachment"
      ? a.action_params.map((id) => ({ id: Number(id), path: `actions.${i}.action_params` }))
      : [],
  );
  const ids = [...new Set(wanted.map((w) => w.id).filter(Number.isSafeInteger))];
  const seen = await visibleAttachmentIds(scope.deps.db, scope.account.id, viewerOf(scope), ids);
  return wanted
    .filter((w) => !seen.has(w.id))
    .map((w) => ({
      path: w.path,
      message: `${w.id} is not a file of a conversation you may see`,
    }));
}

async function checkActions(scope: MacroScope, actions: MacroCreate["actions"] | undefined) {
  if (!actions) {
    return;
  }
  const problems = await actionProblems(scope.deps, scope.account.id, actions, MACRO_ACTIONS);
  if (problems.length === 0) {
    problems.push(...(await attachmentProblems(scope, actions)));
  }
  if (problems.length > 0) {
    throw invalidFields(problems, problems.map((p) => `${p.path}: ${p.message}`).join("; "));
  }
}

const storedActions = (actions: MacroCreate["actions"]) =>
  actions.map((a) => ({ action_name: a.action_name, action_params: a.action_params }));

export async function createMacro(scope: MacroScope, input: MacroCreate): Promise<MacroRow> {
  const { deps, account } = scope;
  await checkActions(scope, input.actions);
  if ((await countMacros(deps.db, account.id)) >= MAX_MACROS_PER_ACCOUNT) {
    throw invalidFields(
      [{ path: "name", message: `an account holds at most ${MAX_MACROS_PER_ACCOUNT} macros` }],
      `An account holds at most ${MAX_MACROS_PER_ACCOUNT} macros`,
    );
  }
  const values = {
    name: input.name,
    visibility: visibilityFor(scope, input.visibility) ?? "personal",
    createdById: scope.userId,
    updatedById: scope.userId,
    actions: storedActions(input.actions),
  } satisfies Partial<NewMacro>;
  const now = deps.now();
  const [rows] = await deps.db.batch([
    insertMacro(deps.db, { ...values, accountId: account.id, createdAt: now, updatedAt: now }),
    auditStatement(deps.db, scope.who, {
      accountId: account.id,
      action: "create",
      type: "Macro",
      id: INSERTED_ID,
      changes: auditedChanges(null, values),
      at: now,
    }),
  ]);
  const [row] = rows;
  if (!row) {
    throw new ApiError("internal_error");
  }
  return row;
}

/** Omitted fields stay; given actions replace the list. */
export async function updateMacro(
  scope: MacroScope,
  macro: MacroRow,
  input: MacroUpdate,
): Promise<MacroRow> {
  const { deps } = scope;
  await checkActions(scope, input.actions);
  const values: Partial<NewMacro> = {};
  if (input.name !== undefined) {
    values.name = input.name;
  }
  const visibility = visibilityFor(scope, input.visibility);
  if (visibility !== undefined) {
    values.visibility = visibility;
  }
  if (input.actions !== undefined) {
    values.actions = storedActions(input.actions);
  }
  const changes = auditedChanges(macro, values);
  if (Object.keys(changes).length === 0) {
    return macro;
  }
  const now = deps.now();
  const [[row]] = await deps.db.batch([
    updateMacroRow(deps.db, macro.accountId, macro.id, {
      ...values,
      updatedById: scope.userId,
      updatedAt: now,
    }),
    auditStatement(deps.db, scope.who, {
      accountId: macro.accountId,
      action: "update",
      type: "Macro",
      id: macro.id,
      changes,
      at: now,
    }),
  ]);
  return row ?? macro;
}

export async function deleteMacro(scope: MacroScope, macro: MacroRow): Promise<void> {
  const { deps } = scope;
  const { id, accountId, ...kept } = macro;
  await deps.db.batch([
    deleteMacroRow(deps.db, accountId, id),
    auditStatement(deps.db, scope.who, {
      accountId,
      action: "destroy",
      type: "Macro",
      id,
      changes: auditedChanges(null, kept),
      at: deps.now(),
    }),
  ]);
}

import type { RuleRow } from "../../db/schema";
import type { Deps } from "../../events/deps";
import { PAGE_SIZE, pageOffset } from "../../http/schemas/pagination";
import { ApiError, type ErrorDetail, invalidFields } from "../../lib/errors";
import { auditedChanges, auditRow, INSERTED_ID } from "../audit-logs/service";
import { listDefinitions } from "../custom-attributes/queries";
import { customDefinitions, type RuleEvent } from "./fields";
import {
  deleteRule as deleteRuleRow,
  findRule,
  insertRule,
  type NewRule,
  rulePage,
  updateRule as updateRuleRow,
} from "./queries";
import type { RuleActionInput, RuleConditionInput, RuleCreate, RuleUpdate } from "./schema";
import { actionProblems } from "./validate.actions";
import { conditionProblems } from "./validate.conditions";

export async function listRules(deps: Deps, accountId: number, page: number) {
  const [rows, [total]] = await rulePage(deps.db, accountId, PAGE_SIZE, pageOffset(page));
  return { rows, count: total?.n ?? 0 };
}

export async function loadRule(deps: Deps, accountId: number, id: number): Promise<RuleRow> {
  const rule = await findRule(deps.db, accountId, id);
  if (!rule) {
    throw new ApiError("not_found");
  }
  return rule;
}

/** Stored as the wire shape; a blank query_operator (the last condition's) is kept as null. */
const storedConditions = (conditions: RuleConditionInput[]) =>
  conditions.map((c) => ({
    attribute_key: c.attribute_key,
    filter_operator: c.filter_operator,
    values: c.values,
    query_operator: c.query_operator || null,
    ...(c.custom_attribute_type ? { custom_attribute_type: c.custom_attribute_type } : {}),
  }));

const storedActions = (actions: RuleActionInput[]) =>
  actions.map((a) => ({ action_name: a.action_name, action_params: a.action_params }));

type Checked = { event: RuleEvent; conditions?: RuleConditionInput[]; actions?: RuleActionInput[] };

/** Everything wrong with the parts being written, in one 422. */
async function check(deps: Deps, accountId: number, rule: Checked): Promise<void> {
  const problems: ErrorDetail[] = [];
  if (rule.conditions) {
    const definitions = customDefinitions(await listDefinitions(deps.db, accountId));
    problems.push(...conditionProblems(rule.event, rule.conditions, definitions));
  }
  if (rule.actions) {
    problems.push(...(await actionProblems(deps, accountId, rule.actions)));
  }
  if (problems.length > 0) {
    throw invalidFields(problems, problems.map((p) => `${p.path}: ${p.message}`).join("; "));
  }
}

export async function createRule(deps: Deps, accountId: number, input: RuleCreate) {
  await check(deps, accountId, {
    event: input.event_name,
    conditions: input.conditions,
    actions: input.actions,
  });
  return insertAudited(deps, {
    accountId,
    name: input.name,
    description: input.description ?? null,
    eventName: input.event_name,
    conditions: storedConditions(input.conditions),
    actions: storedActions(input.actions),
    active: input.active ?? true,
  });
}

const TYPE = "AutomationRule";

/** Inserts a rule with its audit row (Chatwoot audits rules), in one batch. */
async function insertAudited(deps: Deps, values: NewRule): Promise<RuleRow> {
  const { accountId, ...attributes } = values;
  const [[row]] = await deps.db.batch([
    insertRule(deps.db, values),
    auditRow(deps, {
      accountId,
      action: "create",
      type: TYPE,
      id: INSERTED_ID,
      changes: auditedChanges(null, attributes),
    }),
  ]);
  if (!row) {
    throw new ApiError("internal_error");
  }
  return row;
}

/**
 * Chatwoot parity: conditions and actions given are replaced wholesale; omitted fields stay.
 * Kept conditions are checked again when the event changes (message keys need message_created).
 */
export async function updateRule(deps: Deps, rule: RuleRow, input: RuleUpdate) {
  const event = input.event_name ?? (rule.eventName as RuleEvent);
  const conditions =
    input.conditions ?? (input.event_name ? (rule.conditions as RuleConditionInput[]) : undefined);
  await check(deps, rule.accountId, { event, conditions, actions: input.actions });
  const values: Partial<NewRule> = { updatedAt: deps.now() };
  if (input.name !== undefined) {
    values.name = input.name;
  }
  if (input.description !== undefined) {
    values.description = input.description;
  }
  if (input.event_name !== undefined) {
    values.eventName = input.event_name;
  }
  if (input.active !== undefined) {
    values.active = input.active;
  }
  if (input.conditions !== undefined) {
    values.conditions = storedConditions(input.conditions);
  }
  if (input.actions !== undefined) {
    values.actions = storedActions(input.actions);
  }
  const changes = auditedChanges(rule, values);
  const update = updateRuleRow(deps.db, rule.accountId, rule.id, values);
  const [[row]] =
    Object.keys(changes).length > 0
      ? await deps.db.batch([
          update,
          auditRow(deps, {
            accountId: rule.accountId,
            action: "update",
            type: TYPE,
            id: rule.id,
            changes,
          }),
        ])
      : [await update];
  return row ?? rule;
}

export async function deleteRule(deps: Deps, rule: RuleRow): Promise<void> {
  const { id, accountId, ...attributes } = rule;
  await deps.db.batch([
    deleteRuleRow(deps.db, accountId, id),
    auditRow(deps, {
      accountId,
      action: "destroy",
      type: TYPE,
      id,
      changes: auditedChanges(null, attributes),
    }),
  ]);
}

/** Chatwoot parity (clone): a copy with the same name, conditions, actions and state. */
export const cloneRule = (deps: Deps, rule: RuleRow) =>
  insertAudited(deps, {
    accountId: rule.accountId,
    name: rule.name,
    description: rule.description,
    eventName: rule.eventName,
    conditions: rule.conditions,
    actions: rule.actions,
    active: rule.active,
  });

import type { CustomFilterRow, CustomFilterType } from "../../db/schema";
import type { Deps } from "../../events/deps";
import { ApiError, invalidField } from "../../lib/errors";
import { listDefinitions } from "../custom-attributes/queries";
import { compileFilter } from "../filters/compile";
import { contactFilterFields } from "../filters/contact-fields";
import { conversationFilterFields } from "../filters/conversation-fields";
import {
  countCustomFilters,
  deleteCustomFilter as deleteRow,
  findCustomFilter,
  insertCustomFilter,
  type NewCustomFilter,
  updateCustomFilter as updateRow,
} from "./queries";
import { type CustomFilterCreate, type CustomFilterUpdate, MAX_FILTERS_PER_USER } from "./schema";

/** The caller of a custom-filter route: filters belong to a user within an account. */
export type FilterOwner = { deps: Deps; accountId: number; userId: number };

export async function loadCustomFilter(owner: FilterOwner, id: number): Promise<CustomFilterRow> {
  const row = await findCustomFilter(owner.deps.db, owner.accountId, owner.userId, id);
  if (!row) {
    throw new ApiError("not_found");
  }
  return row;
}

const CONFIGS = {
  conversation: { fields: conversationFilterFields, model: "conversation_attribute" },
  contact: { fields: contactFilterFields, model: "contact_attribute" },
} as const;

/**
 * A conversation or contact filter's query is `{payload: [conditions]}` in the filter DSL: it is
 * compiled now, as POST …/filter would, so a saved filter always runs. Report filters are
 * free-form (bounded) objects, as in Chatwoot.
 */
async function checkQuery(
  owner: FilterOwner,
  type: CustomFilterType,
  query: Record<string, unknown>,
) {
  if (type === "report") {
    return;
  }
  const payload = query.payload;
  if (!Array.isArray(payload)) {
    throw invalidField("query.payload", "must be an array of filter conditions");
  }
  const config = CONFIGS[type];
  const definitions = await listDefinitions(owner.deps.db, owner.accountId, config.model);
  try {
    compileFilter(payload, config.fields, definitions, { nowMs: owner.deps.now() * 1000 });
  } catch (err) {
    if (err instanceof ApiError && err.code === "validation_failed") {
      const detail = err.details[0];
      throw invalidField(
        `query.${detail?.path ?? "payload"}`,
        detail?.message ?? err.message,
        err.message,
      );
    }
    throw err;
  }
}

export async function createCustomFilter(
  owner: FilterOwner,
  input: CustomFilterCreate,
): Promise<CustomFilterRow> {
  const type = input.filter_type ?? input.type ?? "conversation";
  await checkQuery(owner, type, input.query);
  if (
    (await countCustomFilters(owner.deps.db, owner.accountId, owner.userId)) >= MAX_FILTERS_PER_USER
  ) {
    throw invalidField(
      "account_id",
      `We do not allow creating >${MAX_FILTERS_PER_USER} custom views per account per user`,
    );
  }
  const [row] = await insertCustomFilter(owner.deps.db, {
    accountId: owner.accountId,
    userId: owner.userId,
    name: input.name,
    filterType: type,
    query: input.query,
  });
  if (!row) {
    throw new ApiError("internal_error");
  }
  return row;
}

export async function updateCustomFilter(
  owner: FilterOwner,
  current: CustomFilterRow,
  input: CustomFilterUpdate,
): Promise<CustomFilterRow> {
  const type = input.filter_type ?? input.type ?? current.filterType;
  const query = input.query ?? current.query;
  if (input.query !== undefined || type !== current.filterType) {
    await checkQuery(owner, type, query);
  }
  const values: Partial<NewCustomFilter> = { filterType: type, query, updatedAt: owner.deps.now() };
  if (input.name !== undefined) {
    values.name = input.name;
  }
  const [row] = await updateRow(owner.deps.db, owner.accountId, owner.userId, current.id, values);
  return row ?? current;
}

export async function deleteCustomFilter(owner: FilterOwner, row: CustomFilterRow) {
  await deleteRow(owner.deps.db, owner.accountId, owner.userId, row.id);
}

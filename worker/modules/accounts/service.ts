import type { BatchItem } from "drizzle-orm/batch";
import type { AccountRow } from "../../db/schema";
import { commit } from "../../events/commit";
import type { Deps } from "../../events/deps";
import { ApiError } from "../../lib/errors";
import { assertMergedWithinBounds } from "../../lib/json-bounds";
import { pickDefined } from "../../lib/patch";
import { deleteBotTokensOfAccount } from "../agent-bots/queries";
import { auditedChanges, auditRow } from "../audit-logs/service";
import { accessRevoked } from "../live/revocation";
import { assertPermitted } from "../platform-apps/policy";
import { permitLastInserted, revokeAll } from "../platform-apps/queries";
import {
  deleteAccount as deleteAccountRow,
  findAccount,
  insertAccount,
  type NewAccount,
  updateAccount as updateAccountRow,
} from "./queries";
import type { AccountUpdate, PlatformAccountCreate } from "./schema";

type PlatformAccountInput = Partial<PlatformAccountCreate>;

function platformValues(input: PlatformAccountInput, current?: AccountRow): Partial<NewAccount> {
  const values = pickDefined(input, {
    name: "name",
    locale: "locale",
    domain: "domain",
    support_email: "supportEmail",
    status: "status",
  }) as Partial<NewAccount>;
  // Chatwoot merges feature flags, limits and custom attributes rather than replacing them.
  if (input.features !== undefined) {
    values.features = { ...current?.features, ...input.features };
    assertMergedWithinBounds("features", values.features);
  }
  if (input.limits !== undefined) {
    values.limits = { ...current?.limits, ...input.limits };
    assertMergedWithinBounds("limits", values.limits);
  }
  if (input.custom_attributes !== undefined) {
    values.customAttributes = { ...current?.customAttributes, ...input.custom_attributes };
    assertMergedWithinBounds("custom_attributes", values.customAttributes);
  }
  return values;
}

/** Creates an account and grants it to the creating platform app, atomically. */
export async function createAccount(
  deps: Deps,
  platformAppId: number,
  input: PlatformAccountCreate,
): Promise<AccountRow> {
  const { db } = deps;
  const values = platformValues(input) as NewAccount;
  const [rows] = await db.batch([
    insertAccount(db, values),
    permitLastInserted(db, platformAppId, "Account"),
  ]);
  const row = rows[0];
  if (!row) {
    throw new ApiError("internal_error");
  }
  return row;
}

/** An account the platform app created; any other (or none) answers 404. */
export async function loadPlatformAccount(
  deps: Deps,
  platformAppId: number,
  id: number,
): Promise<AccountRow> {
  await assertPermitted(deps, platformAppId, "Account", id);
  const account = await findAccount(deps.db, id);
  if (!account) {
    throw new ApiError("not_found");
  }
  return account;
}

export async function updateFromPlatform(
  deps: Deps,
  current: AccountRow,
  input: PlatformAccountInput,
): Promise<AccountRow> {
  return applyUpdate(deps, current, platformValues(input, current));
}

/** Account API update by an administrator: settings keys live in `settings`, the rest in custom attributes. */
export async function updateSettings(
  deps: Deps,
  current: AccountRow,
  input: AccountUpdate,
): Promise<AccountRow> {
  const values = pickDefined(input, {
    name: "name",
    locale: "locale",
    domain: "domain",
    support_email: "supportEmail",
  }) as Partial<NewAccount>;
  const settings = pickDefined(input, {
    auto_resolve_after: "auto_resolve_after",
    auto_resolve_message: "auto_resolve_message",
    auto_resolve_ignore_waiting: "auto_resolve_ignore_waiting",
  });
  const custom = pickDefined(input, {
    industry: "industry",
    company_size: "company_size",
    timezone: "timezone",
  });
  values.settings = { ...current.settings, ...settings };
  values.customAttributes = { ...current.customAttributes, ...custom };
  const changes = auditedChanges(current, values);
  const audit = auditRow(deps, {
    accountId: current.id,
    action: "update",
    type: "Account",
    id: current.id,
    changes,
  });
  return applyUpdate(deps, current, values, Object.keys(changes).length > 0 ? [audit] : []);
}

async function applyUpdate(
  deps: Deps,
  current: AccountRow,
  values: Partial<NewAccount>,
  also: BatchItem<"sqlite">[] = [],
): Promise<AccountRow> {
  // A suspended account's sockets, every one of them, close with the change.
  const suspended = values.status === "suspended" && current.status !== "suspended";
  const [rows] = (await commit(
    deps,
    [updateAccountRow(deps.db, current.id, { ...values, updatedAt: deps.now() }), ...also],
    suspended ? [accessRevoked(current.id, null)] : [],
  )) as [AccountRow[]];
  return rows[0] ?? current;
}

/** Deletes the account with everything it owns; bot tokens are polymorphic, so they go explicitly. */
export async function deleteAccount(deps: Deps, account: AccountRow): Promise<void> {
  const { db } = deps;
  await commit(
    deps,
    [
      deleteBotTokensOfAccount(db, account.id),
      deleteAccountRow(db, account.id),
      revokeAll(db, "Account", account.id),
    ],
    [accessRevoked(account.id, null)],
  );
}

import type { Deps } from "../../http/context";
import { ApiError } from "../../http/errors";
import { permitLastInserted, revokeAll } from "../platform-apps/queries";
import { deleteBotTokensOfAccount } from "../agent-bots/queries";
import {
  type AccountRow,
  type NewAccount,
  deleteAccount as deleteAccountRow,
  insertAccount,
  updateAccount as updateAccountRow,
} from "./queries";
import type { AccountUpdate, PlatformAccountCreate } from "./schema";

type PlatformAccountInput = Partial<PlatformAccountCreate>;

function platformValues(input: PlatformAccountInput, current?: AccountRow): Partial<NewAccount> {
  const values: Partial<NewAccount> = {};
  if (input.name !== undefined) values.name = input.name;
  if (input.locale !== undefined) values.locale = input.locale;
  if (input.domain !== undefined) values.domain = input.domain;
  if (input.support_email !== undefined) values.supportEmail = input.support_email;
  if (input.status !== undefined) values.status = input.status;
  // Chatwoot merges feature flags and limits rather than replacing them.
  if (input.features !== undefined) values.features = { ...current?.features, ...input.features };
  if (input.limits !== undefined) values.limits = { ...current?.limits, ...input.limits };
  if (input.custom_attributes !== undefined) {
    values.customAttributes = { ...current?.customAttributes, ...input.custom_attributes };
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
  const values: Partial<NewAccount> = {};
  if (input.name !== undefined) values.name = input.name;
  if (input.locale !== undefined) values.locale = input.locale;
  if (input.domain !== undefined) values.domain = input.domain;
  if (input.support_email !== undefined) values.supportEmail = input.support_email;
  const settings = { ...current.settings };
  for (const key of ["auto_resolve_after", "auto_resolve_message", "auto_resolve_ignore_waiting"] as const) {
    if (input[key] !== undefined) settings[key] = input[key];
  }
  values.settings = settings;
  const custom = { ...current.customAttributes };
  for (const key of ["industry", "company_size", "timezone"] as const) {
    if (input[key] !== undefined) custom[key] = input[key];
  }
  values.customAttributes = custom;
  return applyUpdate(deps, current, values);
}

async function applyUpdate(
  deps: Deps,
  current: AccountRow,
  values: Partial<NewAccount>,
): Promise<AccountRow> {
  const [row] = await updateAccountRow(deps.db, current.id, { ...values, updatedAt: deps.now() });
  return row ?? current;
}

/** Deletes the account with everything it owns; bot tokens are polymorphic, so they go explicitly. */
export async function deleteAccount(deps: Deps, account: AccountRow): Promise<void> {
  const { db } = deps;
  await db.batch([
    deleteBotTokensOfAccount(db, account.id),
    deleteAccountRow(db, account.id),
    revokeAll(db, "Account", account.id),
  ]);
}

import type { Deps } from "../../events/deps";
import { isUniqueViolation } from "../../lib/db-errors";
import { ApiError, invalidField } from "../../lib/errors";
import { randomBase64 } from "../../lib/ids";
import { loopbackAllowed, publicUrlProblem } from "../../lib/public-url";
import { auditedChanges, auditRow, INSERTED_ID } from "../audit-logs/service";
import { findInbox } from "../inboxes/queries";
import {
  deleteWebhookRow,
  findWebhook,
  findWebhookByUrl,
  insertWebhook,
  type NewWebhook,
  updateWebhookRow,
  type WebhookWithInbox,
} from "./queries";
import { DEFAULT_SUBSCRIPTIONS, type WebhookCreate, type WebhookUpdate } from "./schema";

const urlTaken = () => invalidField("url", "has already been taken");

/**
 * The save-time check of every URL events are POSTed to (account webhooks, API inboxes'
 * webhook_url, agent bots' outgoing_url): 422 on `path` when it could reach a private network.
 * Each send checks again.
 */
export function checkReceiverUrl(deps: Deps, path: string, url: string): void {
  const problem = publicUrlProblem(url, loopbackAllowed(deps.env));
  if (problem) {
    throw invalidField(path, problem);
  }
}

/** Standard Webhooks' secret form: whsec_ + base64 of 32 random bytes. */
export const newWebhookSecret = () => `whsec_${randomBase64(32)}`;

export async function loadWebhook(
  deps: Deps,
  accountId: number,
  id: number,
): Promise<WebhookWithInbox> {
  const found = await findWebhook(deps.db, accountId, id);
  if (!found) {
    throw new ApiError("not_found");
  }
  return found;
}

/** The columns of a create or update, every rule checked first (bad input changes nothing). */
async function checkedValues(
  deps: Deps,
  accountId: number,
  input: WebhookUpdate,
  exceptId = 0,
): Promise<Partial<NewWebhook>> {
  const values: Partial<NewWebhook> = {};
  if (input.url !== undefined) {
    checkReceiverUrl(deps, "url", input.url);
    if (await findWebhookByUrl(deps.db, accountId, input.url, exceptId)) {
      throw urlTaken();
    }
    values.url = input.url;
  }
  if (input.inbox_id !== undefined) {
    if (input.inbox_id !== null && !(await findInbox(deps.db, accountId, input.inbox_id))) {
      throw invalidField("inbox_id", "is not an inbox of this account");
    }
    values.inboxId = input.inbox_id;
  }
  if (input.name !== undefined) {
    values.name = input.name;
  }
  if (input.subscriptions !== undefined) {
    values.subscriptions = [...new Set(input.subscriptions)];
  }
  return values;
}

async function stored(deps: Deps, accountId: number, id: number | undefined) {
  const found = id === undefined ? undefined : await findWebhook(deps.db, accountId, id);
  if (!found) {
    throw new ApiError("internal_error");
  }
  return found;
}

/**
 * Chatwoot parity: the URL is unique per account, subscriptions default to every event but
 * typing. The URL must not reach a private network (checked again at every send).
 */
export async function createWebhook(
  deps: Deps,
  accountId: number,
  input: WebhookCreate,
  opts: { disabled?: boolean } = {},
): Promise<WebhookWithInbox> {
  const values = await checkedValues(deps, accountId, input);
  try {
    const attributes = {
      subscriptions: [...DEFAULT_SUBSCRIPTIONS],
      ...values,
      url: input.url,
      // A hook saved with status 0 (modules/integrations) is stored disabled in the same write.
      ...(opts.disabled ? { disabledAt: deps.now() } : {}),
    };
    const [[row]] = await deps.db.batch([
      insertWebhook(deps.db, { ...attributes, accountId, secret: newWebhookSecret() }),
      auditRow(deps, {
        accountId,
        action: "create",
        type: "Webhook",
        id: INSERTED_ID,
        changes: auditedChanges(null, attributes),
      }),
    ]);
    return stored(deps, accountId, row?.id);
  } catch (err) {
    throw isUniqueViolation(err) ? urlTaken() : err;
  }
}

/**
 * E16: omitted fields stay; any update re-enables a webhook a 410 had disabled, unless
 * `disabledAt` says what it becomes (a hook's status 0: modules/integrations), in the same write.
 */
export async function updateWebhook(
  deps: Deps,
  current: WebhookWithInbox,
  input: WebhookUpdate,
  opts: { disabledAt?: number | null } = {},
): Promise<WebhookWithInbox> {
  const { webhook } = current;
  const values = await checkedValues(deps, webhook.accountId, input, webhook.id);
  try {
    const change = { ...values, disabledAt: opts.disabledAt ?? null };
    const changes = auditedChanges(webhook, change);
    const update = updateWebhookRow(deps.db, webhook.id, { ...change, updatedAt: deps.now() });
    const audit = auditRow(deps, {
      accountId: webhook.accountId,
      action: "update",
      type: "Webhook",
      id: webhook.id,
      changes,
    });
    await (Object.keys(changes).length > 0 ? deps.db.batch([update, audit]) : update);
  } catch (err) {
    throw isUniqueViolation(err) ? urlTaken() : err;
  }
  return stored(deps, webhook.accountId, webhook.id);
}

export async function deleteWebhook(deps: Deps, current: WebhookWithInbox): Promise<void> {
  const { id, accountId, ...attributes } = current.webhook;
  await deleteWebhookRow(deps.db, id, [
    auditRow(deps, {
      accountId,
      action: "destroy",
      type: "Webhook",
      id,
      changes: auditedChanges(null, attributes),
    }),
  ]);
}

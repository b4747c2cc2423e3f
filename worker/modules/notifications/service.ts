import type { Deps } from "../../events/deps";
import { ApiError, invalidField } from "../../lib/errors";
import { DEFAULT_FLAGS } from "./flags";
import {
  conversationIdOf,
  deleteNotification,
  deleteNotifications,
  findNotification,
  findSettings,
  markAllRead,
  updateNotification,
  upsertSettings,
} from "./queries";

/** The user whose notifications a route reads or changes, in the account of the path. */
export type Recipient = { deps: Deps; accountId: number; userId: number };

export async function loadNotification(r: Recipient, id: number) {
  const row = await findNotification(r.deps.db, r.accountId, r.userId, id);
  if (!row) {
    throw new ApiError("not_found");
  }
  return row;
}

/** Chatwoot parity: PATCH marks read, POST …/unread marks unread; both answer the record. */
export async function setRead(r: Recipient, id: number, read: boolean) {
  await loadNotification(r, id);
  const at = r.deps.now();
  await updateNotification(r.deps.db, r.accountId, r.userId, id, {
    readAt: read ? at : null,
    updatedAt: at,
  });
  return loadNotification(r, id);
}

export async function readAll(r: Recipient, displayId?: number) {
  let conversationId: number | undefined;
  if (displayId !== undefined) {
    conversationId = await conversationIdOf(r.deps.db, r.accountId, displayId);
    if (conversationId === undefined) {
      return;
    }
  }
  await markAllRead(r.deps.db, r.accountId, r.userId, r.deps.now(), conversationId);
}

/** Unix seconds, or an ISO 8601 time (Chatwoot's dashboard sends either). */
function snoozeTime(value: number | string): number {
  if (typeof value === "number") {
    return value;
  }
  const ms = /^\d{1,12}$/.test(value) ? Number(value) * 1000 : Date.parse(value);
  if (!Number.isFinite(ms) || ms < 0 || ms > 253_402_300_799_000) {
    throw invalidField("snoozed_until", "must be unix seconds or an ISO 8601 time");
  }
  return Math.floor(ms / 1000);
}

export async function snooze(r: Recipient, id: number, until: number | string) {
  const current = await loadNotification(r, id);
  await updateNotification(r.deps.db, r.accountId, r.userId, id, {
    snoozedUntil: snoozeTime(until),
    meta: { ...current.notification.meta, last_snoozed_at: null },
    updatedAt: r.deps.now(),
  });
  return loadNotification(r, id);
}

export async function removeNotification(r: Recipient, id: number) {
  await loadNotification(r, id);
  await deleteNotification(r.deps.db, r.accountId, r.userId, id);
}

export const removeAll = (r: Recipient, onlyRead: boolean) =>
  deleteNotifications(r.deps.db, r.accountId, r.userId, onlyRead);

export type SettingsView = { id: number | null; emailFlags: string[]; pushFlags: string[] };

/** The user's settings; a member who never saved any has the defaults (not stored: id null). */
export async function notificationSettings(
  r: Recipient,
  update?: { selected_email_flags?: string[]; selected_push_flags?: string[] },
): Promise<SettingsView> {
  const existing = await findSettings(r.deps.db, r.accountId, r.userId);
  if (!update) {
    return existing ?? { id: null, emailFlags: DEFAULT_FLAGS.email, pushFlags: DEFAULT_FLAGS.push };
  }
  const email = update?.selected_email_flags ?? existing?.emailFlags ?? DEFAULT_FLAGS.email;
  const push = update?.selected_push_flags ?? existing?.pushFlags ?? DEFAULT_FLAGS.push;
  const values = { emailFlags: [...new Set(email)], pushFlags: [...new Set(push)] };
  const [row] = await upsertSettings(
    r.deps.db,
    { accountId: r.accountId, userId: r.userId, ...values },
    { ...values, updatedAt: r.deps.now() },
  );
  if (!row) {
    throw new ApiError("internal_error");
  }
  return row;
}

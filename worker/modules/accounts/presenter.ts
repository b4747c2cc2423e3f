import type { z } from "@hono/zod-openapi";
import type { AccountRow } from "../../db/schema";
import { isoFromSeconds } from "../../lib/time";
import {
  ACCOUNT_FEATURES,
  type AccountSchema,
  type PlatformAccountSchema,
  UNAVAILABLE_FEATURES,
} from "./schema";

function features(row: AccountRow): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  for (const name of ACCOUNT_FEATURES) {
    out[name] = UNAVAILABLE_FEATURES.has(name) ? false : (row.features[name] ?? true);
  }
  return out;
}

const setting = <T>(row: AccountRow, key: string, fallback: T): T =>
  (row.settings[key] as T | undefined) ?? fallback;

export function presentAccount(
  row: AccountRow,
  serviceVersion: string | null,
): z.infer<typeof AccountSchema> {
  return {
    id: row.id,
    name: row.name,
    locale: row.locale,
    domain: row.domain,
    support_email: row.supportEmail,
    status: row.status,
    created_at: isoFromSeconds(row.createdAt),
    cache_keys: { account: row.updatedAt },
    features: features(row),
    settings: {
      auto_resolve_after: setting<number | null>(row, "auto_resolve_after", null),
      auto_resolve_message: setting<string | null>(row, "auto_resolve_message", null),
      auto_resolve_ignore_waiting: setting(row, "auto_resolve_ignore_waiting", false),
    },
    custom_attributes: row.customAttributes,
    latest_service_version: serviceVersion,
    subscribed_features: [],
  };
}

/** The platform API's account adds Chatwoot's `enabled_features` and `limits`. */
export function presentPlatformAccount(
  row: AccountRow,
  serviceVersion: string | null,
): z.infer<typeof PlatformAccountSchema> {
  const base = presentAccount(row, serviceVersion);
  return { ...base, enabled_features: base.features, limits: row.limits };
}

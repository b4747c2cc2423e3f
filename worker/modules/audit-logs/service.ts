import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import type { Deps } from "../../events/deps";
import { auditLogStatement } from "./queries";

/** Chatwoot's audited actions, and its sessions' sign_in / sign_out. */
export const AUDIT_ACTIONS = ["create", "update", "destroy", "sign_in", "sign_out"] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Who made an audited change and from where (the route knows both). */
export type AuditWho = { userId: number | null; ip: string | null };

/** Never logged: webhook secrets, HMAC tokens, passwords (hashes included). */
const SECRET = /secret|token|password/i;

const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * Chatwoot's audited_changes: `{attribute: [before, after]}` for an update, the attributes for a
 * create or destroy. Only the keys the change names; secrets are left out.
 */
export function auditedChanges(
  before: Record<string, unknown> | null,
  values: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    if (key === "updatedAt" || key === "createdAt" || SECRET.test(key)) {
      continue;
    }
    if (before === null) {
      out[snake(key)] = value;
    } else if (JSON.stringify(before[key]) !== JSON.stringify(value)) {
      out[snake(key)] = [before[key] ?? null, value];
    }
  }
  return out;
}

/** The audit row of a change, for the change's own batch. */
export const auditStatement = (
  db: Db,
  who: AuditWho,
  entry: {
    accountId: number;
    action: AuditAction;
    type: string;
    /** The record's id; `INSERTED_ID` for a record the same batch just inserted. */
    id: number | null | SQL;
    changes: Record<string, unknown>;
    at: number;
  },
) =>
  auditLogStatement(db, {
    accountId: entry.accountId,
    userId: who.userId,
    action: entry.action,
    auditableType: entry.type,
    auditableId: entry.id,
    auditedChanges: entry.changes,
    remoteAddress: who.ip,
    createdAt: entry.at,
  });

/** The id of the row the batch's previous statement inserted (D1 runs a batch in order). */
export const INSERTED_ID = sql`last_insert_rowid()`;

/** Who made a unit of work's change: its user (null for bots, apps, the system), its address. */
export const whoOf = (deps: Deps): AuditWho => ({
  userId: deps.performedBy.type === "user" ? deps.performedBy.id : null,
  ip: deps.remoteAddress,
});

type AuditEntry = Parameters<typeof auditStatement>[2];

/** The audit row of the change `deps` is making, for the change's own batch. */
export const auditRow = (deps: Deps, entry: Omit<AuditEntry, "at">) =>
  auditStatement(deps.db, whoOf(deps), { ...entry, at: deps.now() });

/**
 * Chatwoot audits each member added to or removed from an inbox or a team (InboxMember,
 * TeamMember create / destroy): one row per user, `{inbox_id | team_id, user_id}`.
 */
export const memberAuditRows = (
  deps: Deps,
  accountId: number,
  type: "InboxMember" | "TeamMember",
  action: "create" | "destroy",
  owner: { inbox_id: number } | { team_id: number },
  userIds: number[],
) =>
  userIds.map((userId) =>
    auditRow(deps, { accountId, action, type, id: null, changes: { ...owner, user_id: userId } }),
  );

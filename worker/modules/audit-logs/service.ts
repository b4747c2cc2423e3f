import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { auditLogStatement } from "./queries";

/** Who made an audited change and from where (the route knows both). */
export type AuditWho = { userId: number | null; ip: string | null };

const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * Chatwoot's audited_changes: `{attribute: [before, after]}` for an update, the attributes for a
 * create or destroy. Only the keys the change names; secrets never reach here (callers pass the
 * values they write).
 */
export function auditedChanges(
  before: Record<string, unknown> | null,
  values: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    if (key === "updatedAt" || key === "createdAt") {
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
    action: "create" | "update" | "destroy";
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

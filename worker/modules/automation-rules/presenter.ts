import type { z } from "@hono/zod-openapi";
import type { RuleRow } from "../../db/schema";
import type { RuleSchema } from "./schema";

type Rule = z.infer<typeof RuleSchema>;

export function presentRule(row: RuleRow): Rule {
  return {
    id: row.id,
    account_id: row.accountId,
    name: row.name,
    description: row.description,
    event_name: row.eventName,
    // Stored as validated (service.ts), so they have the wire shape already.
    conditions: row.conditions as Rule["conditions"],
    actions: row.actions as Rule["actions"],
    created_on: row.createdAt,
    active: row.active,
  };
}

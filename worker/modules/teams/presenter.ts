import type { z } from "@hono/zod-openapi";
import type { TeamRow } from "../../db/schema";
import type { TeamSchema } from "./schema";

export function presentTeam(row: TeamRow, isMember: boolean): z.infer<typeof TeamSchema> {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    allow_auto_assign: row.allowAutoAssign,
    account_id: row.accountId,
    is_member: isMember,
  };
}

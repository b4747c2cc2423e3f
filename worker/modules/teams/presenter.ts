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

/** The team where another record names it (a webhook conversation's meta.team). */
export function presentTeamRef(row: TeamRow): Pick<z.infer<typeof TeamSchema>, "id" | "name"> {
  return { id: row.id, name: row.name };
}

import type { z } from "@hono/zod-openapi";
import type { MacroRow } from "../../db/schema";
import { presentAgent } from "../agents/presenter";
import type { AgentRow } from "../agents/queries";
import type { MacroSchema } from "./schema";

type Macro = z.infer<typeof MacroSchema>;

/** Chatwoot's macro partial; created_by / updated_by are agent records, absent once they left. */
export function presentMacro(row: MacroRow, agents: ReadonlyMap<number, AgentRow>): Macro {
  const createdBy = row.createdById === null ? undefined : agents.get(row.createdById);
  const updatedBy = row.updatedById === null ? undefined : agents.get(row.updatedById);
  return {
    id: row.id,
    name: row.name,
    visibility: row.visibility,
    ...(createdBy ? { created_by: presentAgent(createdBy) } : {}),
    ...(updatedBy ? { updated_by: presentAgent(updatedBy) } : {}),
    account_id: row.accountId,
    // Stored as validated (service.ts), so they have the wire shape already.
    actions: row.actions as Macro["actions"],
  };
}

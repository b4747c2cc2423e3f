import type { z } from "@hono/zod-openapi";
import type { CustomFilterRow } from "../../db/schema";
import { isoFromSeconds } from "../../lib/time";
import type { CustomFilterSchema } from "./schema";

/** Chatwoot's custom filter (its jbuilder's filter_type), plus the swagger's `type`. */
export function presentCustomFilter(row: CustomFilterRow): z.infer<typeof CustomFilterSchema> {
  return {
    id: row.id,
    name: row.name,
    filter_type: row.filterType,
    type: row.filterType,
    query: row.query,
    created_at: isoFromSeconds(row.createdAt),
    updated_at: isoFromSeconds(row.updatedAt),
  };
}

import type { z } from "@hono/zod-openapi";
import type { CannedResponseRow } from "../../db/schema";
import { isoFromSeconds } from "../../lib/time";
import type { CannedResponseSchema } from "./schema";

/** Chatwoot renders the model itself (`render json:`): its columns, times in ISO 8601. */
export function presentCannedResponse(
  row: CannedResponseRow,
  content = row.content,
): z.infer<typeof CannedResponseSchema> {
  return {
    id: row.id,
    account_id: row.accountId,
    short_code: row.shortCode,
    content,
    created_at: isoFromSeconds(row.createdAt),
    updated_at: isoFromSeconds(row.updatedAt),
  };
}

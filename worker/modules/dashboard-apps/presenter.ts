import type { z } from "@hono/zod-openapi";
import type { DashboardAppRow } from "../../db/schema";
import { isoFromSeconds } from "../../lib/time";
import type { DashboardAppSchema } from "./schema";

/** Chatwoot's dashboard_app partial: id, title, content, created_at. */
export const presentDashboardApp = (row: DashboardAppRow): z.infer<typeof DashboardAppSchema> => ({
  id: row.id,
  title: row.title,
  content: row.content.map((f) => ({ type: "frame", url: f.url })),
  created_at: isoFromSeconds(row.createdAt),
});

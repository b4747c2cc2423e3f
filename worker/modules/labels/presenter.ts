import type { z } from "@hono/zod-openapi";
import type { LabelRow } from "../../db/schema";
import type { LabelSchema } from "./schema";

export function presentLabel(row: LabelRow): z.infer<typeof LabelSchema> {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    color: row.color,
    show_on_sidebar: row.showOnSidebar,
  };
}

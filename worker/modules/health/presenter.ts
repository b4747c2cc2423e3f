import type { z } from "@hono/zod-openapi";
import type { ServiceHealthSchema } from "./schema";
import type { ServiceStatus } from "./service";

/** Rails' `to_formatted_s(:db)`, as Chatwoot prints its timestamp: `2026-01-31 12:00:00`. */
const dbTime = (seconds: number) =>
  new Date(seconds * 1000).toISOString().slice(0, 19).replace("T", " ");

export function presentHealth(
  version: string,
  nowSeconds: number,
  dataServices: ServiceStatus,
): z.infer<typeof ServiceHealthSchema> {
  return {
    version,
    timestamp: dbTime(nowSeconds),
    queue_services: "ok",
    data_services: dataServices,
  };
}

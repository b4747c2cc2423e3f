import { z } from "@hono/zod-openapi";

const Status = z.enum(["ok", "failing"]);

/** Chatwoot's `GET /api` (ApiController#index): the version and the health of its services. */
export const ServiceHealthSchema = z
  .object({
    version: z.string().openapi({ example: "0.1.0" }),
    timestamp: z
      .string()
      .openapi({ example: "2026-01-31 12:00:00", description: "UTC, `YYYY-MM-DD hh:mm:ss`" }),
    queue_services: Status.openapi({ description: "The event queue; always `ok` (no probe)" }),
    data_services: Status.openapi({ description: "D1: `ok` when a trivial query answers" }),
  })
  .openapi("ServiceHealth");

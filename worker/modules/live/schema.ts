import { z } from "@hono/zod-openapi";

export const LiveQuery = z.object({
  after: z.coerce.number().int().min(0).optional().openapi({
    description: "The last frame seq the client saw: what came after it is replayed first",
  }),
  batch: z.enum(["1", "0", "true", "false"]).optional().openapi({
    description:
      "1: durable frames that are ready together arrive as one JSON array (in seq order)",
  }),
});

/** Whether the client opted in to batched frames. */
export const wantsBatch = (q: { batch?: string }) => q.batch === "1" || q.batch === "true";

export const upgradeResponse = {
  101: { description: "Switching protocols: a WebSocket of JSON frames (see docs/realtime.md)" },
} as const;

export const TypingSchema = z
  .object({
    typing_status: z.enum(["on", "off"]),
    is_private: z
      .boolean()
      .optional()
      .openapi({ description: "Typing a private note: only agents see it" }),
  })
  .openapi("TypingStatus");

import { z } from "@hono/zod-openapi";

export const LiveQuery = z.object({
  after: z.coerce.number().int().min(0).optional().openapi({
    description: "The last frame seq the client saw: what came after it is replayed first",
  }),
});

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

import { z } from "@hono/zod-openapi";

/** Chatwoot's page size for lists. */
export const PAGE_SIZE = 25;

export const PageQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1).openapi({ example: 1 }),
});

export const pageOffset = (page: number, size = PAGE_SIZE) => (page - 1) * size;

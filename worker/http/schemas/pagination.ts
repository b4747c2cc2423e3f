import { z } from "@hono/zod-openapi";

/** Chatwoot's page size for lists. */
export const PAGE_SIZE = 25;

/** The highest page served; beyond it a page is refused (422) rather than scanned for. */
export const MAX_PAGE = 100_000;

/**
 * Ruby's `to_i` on a page as Chatwoot reads it (`params[:page].to_i`): leading blanks, a sign,
 * then digits; anything else reads as 0 ("abc" → 0, "2abc" → 2, "1.5" → 1).
 */
export function rubyToI(value: string): number {
  const match = /^\s*([+-]?\d+)/.exec(value);
  return match ? Number.parseInt(match[1] ?? "0", 10) : 0;
}

/**
 * Chatwoot (Kaminari) serves page 1 for any page below 1: `page=0`, `page=-3` and `page=abc`
 * all mean page 1. Absent or blank stays absent; a number or a string becomes a whole number
 * of at least 1; anything else (an object, a boolean) is left for the schema to refuse.
 */
export function lenientPage(value: unknown): unknown {
  if (value === undefined || value === null || value === "") {
    return undefined;
  }
  if (typeof value === "number") {
    return Number.isFinite(value) ? Math.max(1, Math.trunc(value)) : value;
  }
  if (typeof value === "string") {
    return Math.max(1, rubyToI(value));
  }
  return value;
}

/** A page number in a query string or a body, read leniently (see `lenientPage`). */
export const PageNumber = z
  .preprocess(lenientPage, z.number().int().min(1).max(MAX_PAGE).optional())
  .openapi({
    type: "integer",
    minimum: 1,
    example: 1,
    description: "1-based; 0, negative or non-numeric pages mean page 1",
  });

/** A page number defaulting to 1. */
export const PageWithDefault = z
  .preprocess(lenientPage, z.number().int().min(1).max(MAX_PAGE).default(1))
  .openapi({
    type: "integer",
    minimum: 1,
    example: 1,
    description: "1-based; 0, negative or non-numeric pages mean page 1",
  });

export const PageQuery = z.object({ page: PageWithDefault });

export const pageOffset = (page: number, size = PAGE_SIZE) => (page - 1) * size;

import { and, gte, lt, type SQLWrapper } from "drizzle-orm";

/**
 * `column` starts with `${base}-`, as a range ('-' is 0x2D, '.' the next byte) rather than
 * LIKE: D1 refuses LIKE patterns over 50 bytes, and the range uses the slug's unique index.
 */
export const startsWithDash = (column: SQLWrapper, base: string) =>
  and(gte(column, `${base}-`), lt(column, `${base}.`));

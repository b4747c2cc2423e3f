/**
 * D1 binds at most 100 values in one statement ("too many SQL variables" beyond). A statement
 * built from a list of any length (an IN list, one row per item) takes it in slices of this
 * many, leaving room for the statement's few other values.
 */
export const BIND_SLICE = 90;

/** `items` in slices of at most `size` (none for an empty list). */
export function inSlices<T>(items: readonly T[], size = BIND_SLICE): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) {
    out.push(items.slice(i, i + size));
  }
  return out;
}

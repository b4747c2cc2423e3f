/**
 * Copies the keys of `input` that are not undefined into a new object under their column
 * names (`mapping[key]`), so PATCH bodies change only what they carry.
 */
export function pickDefined<I extends object, C extends string>(
  input: I,
  mapping: { [K in keyof I]?: C },
): Partial<Record<C, unknown>> {
  const out: Partial<Record<C, unknown>> = {};
  for (const [key, column] of Object.entries(mapping) as [keyof I, C][]) {
    if (input[key] !== undefined) {
      out[column] = input[key];
    }
  }
  return out;
}

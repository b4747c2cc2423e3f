/**
 * Bounds of a free-form JSON value (attributes, settings, bot configs): checked at write time
 * (`http/schemas/bounded-json.ts`, a 422) and applied when reading stored values back
 * (`clampJson`, so a row stored before the limits, or straight into D1, is presented cut down
 * instead of blowing the stack). Both walk with an explicit stack, never by recursion.
 * docs/api.md "Limits" lists them.
 */
import { invalidField } from "./errors";
export const JSON_LIMITS = {
  /** Nesting levels of objects and arrays; the field's own object is level 1. */
  depth: 16,
  /** Keys of one object, items of one array. */
  keysPerObject: 200,
  /** Keys and items of the whole value. */
  totalKeys: 1_000,
  /** Characters of one string, keys included. */
  stringLength: 10_000,
  /** Characters of the whole value serialized as JSON (clampJson counts them as it copies). */
  totalSize: 64 * 1024,
} as const;

export type JsonViolation = { path: (string | number)[]; message: string };

type Frame = { value: unknown; path: (string | number)[]; depth: number };

const isContainer = (value: unknown): value is object =>
  typeof value === "object" && value !== null;

/**
 * The first bound `value` breaks, with the path to it, or null. Walks iteratively; checks the
 * total serialized size last, once the shape is known to be small enough to serialize.
 */
export function findJsonViolation(
  value: unknown,
  limits: typeof JSON_LIMITS = JSON_LIMITS,
): JsonViolation | null {
  const stack: Frame[] = [{ value, path: [], depth: 1 }];
  let total = 0;
  while (stack.length > 0) {
    const frame = stack.pop() as Frame;
    const v = frame.value;
    if (typeof v === "string") {
      if (v.length > limits.stringLength) {
        return {
          path: frame.path,
          message: `String too long: at most ${limits.stringLength} characters`,
        };
      }
      continue;
    }
    if (!isContainer(v)) {
      continue;
    }
    if (frame.depth > limits.depth) {
      return { path: frame.path, message: `Nested too deep: at most ${limits.depth} levels` };
    }
    const entries: [string | number, unknown][] = Array.isArray(v)
      ? v.map((item, i) => [i, item])
      : Object.entries(v);
    if (entries.length > limits.keysPerObject) {
      return {
        path: frame.path,
        message: `Too many keys: at most ${limits.keysPerObject} per object or array`,
      };
    }
    total += entries.length;
    if (total > limits.totalKeys) {
      return { path: frame.path, message: `Too many keys: at most ${limits.totalKeys} in all` };
    }
    // Pushed in reverse so the first key is checked first.
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, item] = entries[i] as [string | number, unknown];
      if (typeof key === "string" && key.length > limits.stringLength) {
        return {
          path: frame.path,
          message: `Key too long: at most ${limits.stringLength} characters`,
        };
      }
      stack.push({ value: item, path: [...frame.path, key], depth: frame.depth + 1 });
    }
  }
  // Depth, keys and strings are bounded here, so serializing cannot blow the stack.
  if ((JSON.stringify(value) ?? "").length > limits.totalSize) {
    return { path: [], message: `Too large: at most ${limits.totalSize} characters as JSON` };
  }
  return null;
}

/**
 * A copy of `value` within the bounds: containers past the depth become null, keys and items
 * past a count (or past the size budget) are dropped, long strings are cut. Never throws, never
 * recurses; a value already within the bounds comes back equal.
 */
export function clampJson<T>(value: T, limits: typeof JSON_LIMITS = JSON_LIMITS): T {
  if (!isContainer(value)) {
    return typeof value === "string" ? (value.slice(0, limits.stringLength) as T) : value;
  }
  const root: Record<string, unknown> | unknown[] = Array.isArray(value) ? [] : {};
  type Task = { source: object; target: Record<string, unknown> | unknown[]; depth: number };
  const stack: Task[] = [{ source: value, target: root, depth: 1 }];
  let keys = 0;
  let size = 2;
  while (stack.length > 0) {
    const { source, target, depth } = stack.pop() as Task;
    const entries: [string | number, unknown][] = Array.isArray(source)
      ? source.map((item, i) => [i, item])
      : Object.entries(source);
    let taken = 0;
    for (const [rawKey, item] of entries) {
      if (taken >= limits.keysPerObject || keys >= limits.totalKeys || size >= limits.totalSize) {
        break;
      }
      const key = typeof rawKey === "string" ? rawKey.slice(0, limits.stringLength) : rawKey;
      // What the entry adds to the serialized text, never more: the budget only ever cuts
      // values that really are over it.
      size += (taken > 0 ? 1 : 0) + (typeof key === "string" ? key.length + 3 : 0);
      let copy: unknown;
      if (typeof item === "string") {
        copy = item.slice(0, limits.stringLength);
        size += (copy as string).length + 2;
      } else if (isContainer(item)) {
        if (depth + 1 > limits.depth) {
          copy = null;
          size += 4;
        } else {
          copy = Array.isArray(item) ? [] : {};
          size += 2;
          stack.push({
            source: item,
            target: copy as Record<string, unknown> | unknown[],
            depth: depth + 1,
          });
        }
      } else {
        copy = item;
        size += JSON.stringify(item)?.length ?? 0;
      }
      if (Array.isArray(target)) {
        target.push(copy);
      } else {
        target[key] = copy;
      }
      taken++;
      keys++;
    }
  }
  return root as T;
}

/** JSON.parse for a stored free-form value: the value clamped, `{}` for anything unreadable. */
export function parseStoredJson(text: unknown): Record<string, unknown> {
  if (typeof text !== "string") {
    return isContainer(text) && !Array.isArray(text)
      ? clampJson(text as Record<string, unknown>)
      : {};
  }
  try {
    const parsed: unknown = JSON.parse(text);
    return isContainer(parsed) && !Array.isArray(parsed)
      ? clampJson(parsed as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/**
 * A free-form value that PATCH merges into the stored one (attributes, settings) is bounded on
 * the merged value, not only on the request: repeated small PATCHes cannot grow it past the
 * bounds. Called with the value as it would be stored, before anything is written: a 422
 * naming the field, nothing changed.
 */
export function assertMergedWithinBounds(field: string, merged: unknown): void {
  const violation = findJsonViolation(merged);
  if (violation) {
    throw invalidField(
      field,
      `is too large once merged with the stored value: ${violation.message}`,
      `${field} would be too large once merged with the stored value: ${violation.message}`,
    );
  }
}

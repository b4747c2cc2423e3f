/** Parsers for filter values as clients send them; each returns null for a value it refuses. */

const DAY = 86_400;

/** `values` as a list: Chatwoot clients send arrays, some send a bare scalar. */
export function asList(values: unknown): unknown[] | null {
  if (values === undefined || values === null) {
    return [];
  }
  if (Array.isArray(values)) {
    return values;
  }
  return ["string", "number", "boolean"].includes(typeof values) ? [values] : null;
}

/** The dashboard's dropdowns send `{id, name}` options for id-like keys. */
const unwrapOption = (value: unknown) =>
  value && typeof value === "object" && !Array.isArray(value) && "id" in value
    ? (value as { id: unknown }).id
    : value;

/** SQLite's lower() folds ASCII only, so values are folded the same way to agree with it. */
export const lowerAscii = (value: string) => value.replace(/[A-Z]/g, (c) => c.toLowerCase());

export function textValue(raw: unknown): string | null {
  const value = unwrapOption(raw);
  if (typeof value === "number" && Number.isFinite(value)) {
    return String(value);
  }
  if (typeof value !== "string" || value.trim() === "" || value.length > 1000) {
    return null;
  }
  return value;
}

const NUMERIC = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)\s*$/;

/** JSON numbers and numeric strings alike, as clients send both. */
export function numberValue(raw: unknown, integer = false): number | null {
  const value = unwrapOption(raw);
  let n: number | null = null;
  if (typeof value === "number") {
    n = value;
  } else if (typeof value === "string" && NUMERIC.test(value)) {
    n = Number(value);
  }
  if (n === null || !Number.isFinite(n) || (integer && !Number.isSafeInteger(n))) {
    return null;
  }
  return n;
}

export function booleanValue(raw: unknown): boolean | null {
  const value = typeof raw === "string" ? raw.trim().toLowerCase() : raw;
  if (value === true || value === "true" || value === 1 || value === "1") {
    return true;
  }
  if (value === false || value === "false" || value === 0 || value === "0") {
    return false;
  }
  return null;
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/;

/**
 * A calendar day as the unix second of its UTC midnight. Accepts `YYYY-MM-DD`, an ISO
 * date-time (its UTC day) or unix seconds (number or numeric string).
 */
export function dayValue(raw: unknown): number | null {
  let ms: number;
  if (typeof raw === "string" && DATE_ONLY.test(raw)) {
    const [, y, m, d] = DATE_ONLY.exec(raw) as RegExpExecArray;
    ms = Date.UTC(Number(y), Number(m) - 1, Number(d));
    if (new Date(ms).toISOString().slice(0, 10) !== raw) {
      return null;
    }
  } else if (typeof raw === "string" && DATE_TIME.test(raw)) {
    ms = Date.parse(raw);
  } else {
    const seconds = numberValue(raw, true);
    ms = seconds === null || seconds < 0 ? Number.NaN : seconds * 1000;
  }
  if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15) {
    return null;
  }
  return Math.floor(ms / 1000 / DAY) * DAY;
}

/** `YYYY-MM-DD` of a UTC day start. */
export const isoDay = (dayStart: number) => new Date(dayStart * 1000).toISOString().slice(0, 10);

export const dayStart = (nowMs: number) => Math.floor(nowMs / 1000 / DAY) * DAY;

export const ONE_DAY = DAY;

/** Chatwoot 4.17+: days_before takes a whole number of days from 1 to 998. */
export function daysValue(raw: unknown): number | null {
  const n = numberValue(raw, true);
  return n !== null && n >= 1 && n <= 998 ? n : null;
}

import type { AttributeModel, DefinitionRow } from "../../db/schema";
import type { Deps } from "../../events/deps";
import { isHttpUrl } from "../../http/schemas/urls";
import { type ErrorDetail, invalidFields } from "../../lib/errors";
import { listDefinitions } from "./queries";

type Checked = { ok: true; value: unknown } | { ok: false; message: string };

const ok = (value: unknown): Checked => ({ ok: true, value });
const bad = (message: string): Checked => ({ ok: false, message });

const NUMERIC = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)\s*$/;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

const isIsoDate = (v: string) =>
  DATE_ONLY.test(v)
    ? new Date(`${v}T00:00:00Z`).toISOString().startsWith(v)
    : DATE_TIME.test(v) && Number.isFinite(Date.parse(v));

function checkText(def: DefinitionRow, value: string): Checked {
  if (value.length > 10_000) {
    return bad("is longer than 10000 characters");
  }
  if (def.regexPattern) {
    let matches = false;
    try {
      matches = new RegExp(def.regexPattern).test(value);
    } catch {
      // A pattern that no longer compiles rejects every value rather than failing the request.
    }
    if (!matches) {
      return bad(def.regexCue ? `does not match: ${def.regexCue}` : "does not match the pattern");
    }
  }
  return ok(value);
}

/** One value against its definition; numbers may arrive as numeric strings. */
function checkValue(def: DefinitionRow, value: unknown): Checked {
  if (value === null) {
    return ok(null);
  }
  switch (def.attributeDisplayType) {
    case "number":
    case "currency":
    case "percent": {
      const n =
        typeof value === "number"
          ? value
          : typeof value === "string" && NUMERIC.test(value)
            ? Number(value)
            : Number.NaN;
      return Number.isFinite(n) ? ok(n) : bad("must be a number");
    }
    case "date":
      return typeof value === "string" && isIsoDate(value.trim())
        ? ok(value.trim())
        : bad("must be an ISO 8601 date or date-time");
    case "checkbox":
      if (value === "true" || value === "false") {
        return ok(value === "true");
      }
      return typeof value === "boolean" ? ok(value) : bad("must be true or false");
    case "link":
      return typeof value === "string" && isHttpUrl(value.trim())
        ? ok(value.trim())
        : bad("must be an absolute http(s) URL");
    case "list":
      return typeof value === "string" && def.attributeValues.includes(value)
        ? ok(value)
        : bad(`must be one of: ${def.attributeValues.join(", ")}`);
    default:
      return typeof value === "string" ? checkText(def, value) : bad("must be a string");
  }
}

/**
 * Pure half of {@link validateCustomAttributes}: checks `attrs` against the definitions and
 * returns the normalised values, or throws one 422 naming every bad key.
 */
export function checkCustomAttributes(
  definitions: readonly DefinitionRow[],
  attrs: Record<string, unknown>,
  path = "custom_attributes",
): Record<string, unknown> {
  const byKey = new Map(definitions.map((d) => [d.attributeKey, d]));
  const out: Record<string, unknown> = {};
  const problems: ErrorDetail[] = [];
  for (const [key, value] of Object.entries(attrs)) {
    const def = byKey.get(key);
    const result = def ? checkValue(def, value) : bad("is not a defined custom attribute");
    if (result.ok) {
      out[key] = result.value;
    } else {
      problems.push({ path: `${path}.${key}`, message: result.message });
    }
  }
  if (problems.length > 0) {
    throw invalidFields(problems);
  }
  return out;
}

/**
 * Checks custom attribute values written to a contact or a conversation against the account's
 * definitions for that model. Unknown keys and wrong types are 422 naming the key (the message
 * carries the definition's regex_cue when its regex fails); number, currency and percent come
 * back as numbers, checkbox as booleans. null is accepted for any key (it clears the value).
 */
export async function validateCustomAttributes(
  deps: Deps,
  accountId: number,
  model: AttributeModel,
  attrs: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  if (Object.keys(attrs).length === 0) {
    return {};
  }
  return checkCustomAttributes(await listDefinitions(deps.db, accountId, model), attrs);
}

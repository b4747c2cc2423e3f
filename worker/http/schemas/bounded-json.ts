import { z } from "@hono/zod-openapi";
import { findJsonViolation, JSON_LIMITS } from "../../lib/json-bounds";

/**
 * The bounds of every free-form JSON field of a request (docs/api.md "Limits"): depth, keys per
 * object and in all, string length, serialized size. A value past one is a 422 whose `details`
 * path points at the first offending key. The walk is iterative, so any depth is safe to check.
 */
export function checkJsonBounds(value: unknown, ctx: z.core.$RefinementCtx): void {
  const violation = findJsonViolation(value);
  if (violation) {
    ctx.addIssue({ code: "custom", path: violation.path, message: violation.message });
  }
}

const description =
  `Free-form JSON object: at most ${JSON_LIMITS.depth} levels deep, ` +
  `${JSON_LIMITS.keysPerObject} keys per object (${JSON_LIMITS.totalKeys} in all), ` +
  `strings of ${JSON_LIMITS.stringLength} characters, ${JSON_LIMITS.totalSize / 1024} KiB as JSON`;

/** A free-form JSON object within the bounds. */
export const JsonObjectSchema = z
  .record(z.string(), z.unknown())
  .superRefine(checkJsonBounds)
  .openapi({ description });

/** Any schema, plus the bounds on the value it accepts (an object with `.catchall`, say). */
export const bounded = <T extends z.ZodType>(schema: T): T =>
  schema.superRefine(checkJsonBounds) as unknown as T;

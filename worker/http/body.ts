import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { z } from "zod";
import { invalidFields } from "../lib/errors";
import { zodDetails } from "../lib/zod-details";
import type { AppEnv } from "./context";

/** The form media types a route reads as a form by default (its validators parse both). */
const FORM_TYPES = ["multipart/form-data", "application/x-www-form-urlencoded"] as const;

/** Routes whose form body is multipart only: any other content type is read as JSON. */
export const MULTIPART_ONLY = ["multipart/form-data"] as const;

// biome-ignore lint/suspicious/noExplicitAny: any env and path; only the validated body matters.
type BodyContext<J, F> = Context<any, any, { out: { json: J; form: F } }>;

type BodyOptions<J> = {
  /** The content types read as a form; anything else is the JSON body. */
  form?: readonly string[];
  /**
   * For a route whose body is optional on the wire but required in substance: with no body at
   * all, `{}` is checked against this schema, so the 422 names what is missing.
   */
  required?: z.ZodType<J>;
};

/**
 * The body of a route that declares a JSON and a form content type, as its validators parsed
 * it: the form when the request's content type is one of `form`, the JSON body otherwise.
 */
export function jsonOrForm<J, F>(c: BodyContext<J, F>, opts: BodyOptions<J> = {}): J | F {
  const type = (c.req.header("content-type") ?? "").toLowerCase();
  if ((opts.form ?? FORM_TYPES).some((form) => type.startsWith(form))) {
    return c.req.valid("form");
  }
  if (opts.required && type === "") {
    const result = opts.required.safeParse({});
    if (!result.success) {
      throw invalidFields(zodDetails(result.error), "Request body is missing");
    }
    return result.data;
  }
  return c.req.valid("json");
}

/**
 * Chatwoot clients post actions with no body, or a JSON content type and an empty body: both
 * read as `{}` (a malformed non-empty body is still a 400).
 */
export const blankJsonIsEmpty = createMiddleware<AppEnv>(async (c, next) => {
  const type = c.req.header("content-type") ?? "";
  if (/^application\/(.+\+)?json/i.test(type) && (await c.req.text()).trim() === "") {
    // Hono parses JSON from the cached text, so the blank body is read as "{}".
    c.req.bodyCache.text = Promise.resolve("{}") as unknown as string;
  }
  await next();
});

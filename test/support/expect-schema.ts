import type { z } from "zod";
import { createApp } from "../../worker/app";
import { ErrorSchema } from "../../worker/http/errors";

/**
 * The contract check every API test gets through `api()`: a response body must match the
 * schema its route declares in the OpenAPI registry (the same zod schema /openapi.json is
 * generated from), and must not carry keys the schema does not declare. zod schemas are used
 * directly: JSON Schema validators compile with `new Function`, which workerd forbids.
 */

type RouteDef = {
  method: string;
  path: string;
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
};

type Template = { method: string; path: string; segments: string[]; route: RouteDef };

/** JSON routes outside the registry (the service index and the document itself). */
const UNDOCUMENTED = new Set(["GET /", "GET /openapi.json"]);

const isParam = (segment: string) => segment.startsWith("{") && segment.endsWith("}");
const split = (path: string) => path.split("/").filter(Boolean);

let templates: Template[] | undefined;

/** Built once per test file: the registry holds every mounted route with its full path. */
function routeTemplates(): Template[] {
  templates ??= (createApp().openAPIRegistry.definitions as { type: string; route?: RouteDef }[])
    .flatMap((def) => (def.type === "route" && def.route ? [def.route] : []))
    .map((route) => ({
      method: route.method.toUpperCase(),
      path: route.path,
      segments: split(route.path),
      route,
    }));
  return templates;
}

/** Negative when `a` is more specific: the first segment where one is literal and the other a param decides. */
function bySpecificity(a: Template, b: Template) {
  for (let i = 0; i < a.segments.length; i++) {
    const pa = isParam(a.segments[i] as string);
    const pb = isParam(b.segments[i] as string);
    if (pa !== pb) {
      return pa ? 1 : -1;
    }
  }
  return 0;
}

/** The route template a concrete request path (query string allowed) is served by. */
export function findRoute(method: string, path: string): Template | undefined {
  const pathname = new URL(path, "http://parley.test").pathname;
  const segments = split(pathname);
  const upper = method.toUpperCase();
  return routeTemplates()
    .filter(
      (t) =>
        t.method === upper &&
        t.segments.length === segments.length &&
        t.segments.every((s, i) => isParam(s) || s === segments[i]),
    )
    .sort(bySpecificity)[0];
}

type Def = { type: string } & Record<string, any>;
const defOf = (schema: unknown): Def => (schema as z.ZodType)._zod.def as unknown as Def;
const isZod = (schema: unknown) =>
  typeof schema === "object" && schema !== null && "_zod" in (schema as object);
const join = (path: string, key: string | number) => (path ? `${path}.${key}` : String(key));

/**
 * Paths of keys in `value` that `schema` does not declare (zod objects strip them silently).
 * Records, `z.unknown()` and loose/catchall objects allow free keys. Call only on values the
 * schema accepts.
 */
export function undeclaredKeys(schema: unknown, value: unknown, path = ""): string[] {
  if (value === null || value === undefined || typeof value !== "object") {
    return [];
  }
  const def = defOf(schema);
  switch (def.type) {
    case "object": {
      const shape = def.shape as Record<string, unknown>;
      const catchall = def.catchall as unknown;
      return Object.entries(value as Record<string, unknown>).flatMap(([key, item]) => {
        if (key in shape) {
          return undeclaredKeys(shape[key], item, join(path, key));
        }
        if (catchall && defOf(catchall).type !== "never") {
          return undeclaredKeys(catchall, item, join(path, key));
        }
        return [join(path, key)];
      });
    }
    case "record":
      return Object.entries(value as Record<string, unknown>).flatMap(([key, item]) =>
        undeclaredKeys(def.valueType, item, join(path, key)),
      );
    case "array":
      return Array.isArray(value)
        ? value.flatMap((item, i) => undeclaredKeys(def.element, item, join(path, i)))
        : [];
    case "tuple":
      return Array.isArray(value)
        ? value.flatMap((item, i) => {
            const itemSchema = def.items[i] ?? def.rest;
            return itemSchema ? undeclaredKeys(itemSchema, item, join(path, i)) : [];
          })
        : [];
    case "union": {
      // The accepting option that declares the most of the value is the one it was meant as.
      let best: string[] | undefined;
      for (const option of def.options as z.ZodType[]) {
        if (option.safeParse(value).success) {
          const extra = undeclaredKeys(option, value, path);
          if (best === undefined || extra.length < best.length) {
            best = extra;
          }
        }
      }
      return best ?? [];
    }
    case "intersection": {
      const right = new Set(undeclaredKeys(def.right, value, path));
      return undeclaredKeys(def.left, value, path).filter((key) => right.has(key));
    }
    case "pipe":
      // z.preprocess(fn, schema) is pipe(transform, schema); schema.transform(fn) is pipe(schema, transform).
      return undeclaredKeys(defOf(def.in).type === "transform" ? def.out : def.in, value, path);
    case "lazy":
      return undeclaredKeys(def.getter(), value, path);
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "nonoptional":
    case "catch":
    case "readonly":
      return undeclaredKeys(def.innerType, value, path);
    default:
      return [];
  }
}

/** Problems of `body` against `schema`: zod issues with their paths, then undeclared keys. */
export function schemaProblems(schema: z.ZodType, body: unknown): string[] {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    return parsed.error.issues.map(
      (issue) => `${issue.path.map(String).join(".") || "(body)"}: ${issue.message}`,
    );
  }
  return undeclaredKeys(schema, body).map((key) => `${key}: not declared by the response schema`);
}

const preview = (body: unknown) => {
  const text = JSON.stringify(body);
  return text.length > 600 ? `${text.slice(0, 600)}…` : text;
};

/**
 * Throws when a JSON response body drifts from its route's declared response schema: 2xx
 * bodies against the route's schema for that status, error bodies against the one error shape.
 */
export function checkResponse(method: string, path: string, status: number, body: unknown) {
  const request = `${method.toUpperCase()} ${path}`;
  let schema: unknown;
  let label: string;
  if (status >= 400) {
    schema = ErrorSchema;
    label = `${request} → ${status} (error shape)`;
  } else {
    const template = findRoute(method, path);
    if (!template) {
      if (UNDOCUMENTED.has(`${method.toUpperCase()} ${new URL(path, "http://x").pathname}`)) {
        return;
      }
      throw new Error(`Response contract: no documented route serves ${request} (${status})`);
    }
    label = `${template.method} ${template.path} → ${status} (requested ${path})`;
    const response = template.route.responses?.[String(status)];
    if (!response) {
      throw new Error(`Response contract: ${label}: the route declares no ${status} response`);
    }
    schema = response.content?.["application/json"]?.schema;
    if (!isZod(schema)) {
      throw new Error(`Response contract: ${label}: the route declares no JSON body for ${status}`);
    }
  }
  const problems = schemaProblems(schema as z.ZodType, body);
  if (problems.length > 0) {
    throw new Error(
      `Response contract drift: ${label}\n${problems.map((p) => `  - ${p}`).join("\n")}\nbody: ${preview(body)}`,
    );
  }
}

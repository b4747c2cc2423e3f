// Parts of zod that reach the bundle only because @hono/zod-openapi hands the whole `z` namespace
// to zod-to-openapi (extendZodWithOpenApi(z)), so esbuild keeps every export of it. Parley calls
// none of them: zod's ahead-of-time compiler is opt-in (`z.compile`, `import "zod/compile"`;
// parsing never imports it, zod/v4/core/parse.js) and nothing builds schemas from JSON Schema.
// wrangler.toml's [alias] puts this module in their place (43 KiB less); the names are kept so
// zod's re-exports still resolve, and a call says why it cannot work.

const unbundled = (name: string) => () => {
  throw new Error(`zod's ${name} is not bundled in Parley's Worker (wrangler.toml [alias])`);
};

// zod/v4/core/compile.js
export const INVALID = Symbol.for("zod.compile.invalid");
export class ZodCompileAsyncError extends Error {}
export class ZodCompileUnsupportedError extends Error {}
export const compile = unbundled("compile");
export const withParser = unbundled("withParser");
export const compileFn = unbundled("compileFn");

// zod/v4/classic/from-json-schema.js
export const fromJSONSchema = unbundled("fromJSONSchema");

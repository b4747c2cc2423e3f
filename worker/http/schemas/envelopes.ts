import { z } from "@hono/zod-openapi";

/** `{payload: [...]}`, Chatwoot's list envelope. */
export const payloadList = <T extends z.ZodType>(item: T) => z.object({ payload: z.array(item) });

/** `{payload: record}`. */
export const payloadOne = <T extends z.ZodType>(item: T) => z.object({ payload: item });

export const jsonContent = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { "application/json": { schema } },
});

/** A JSON request body. */
export const jsonBody = <T extends z.ZodType>(schema: T, required = true) => ({
  required,
  content: { "application/json": { schema } },
});

export const DeletedSchema = z.object({}).openapi("Empty");

/** Chatwoot accepts a resource's fields either flat or nested under its name (Rails wrap_parameters). */
export const unwrapped = <T extends z.ZodType>(key: string, schema: T) =>
  z.preprocess((value) => {
    if (value && typeof value === "object" && !Array.isArray(value)) {
      const nested = (value as Record<string, unknown>)[key];
      if (nested && typeof nested === "object" && !Array.isArray(nested)) {
        return { ...(value as object), ...(nested as object) };
      }
    }
    return value;
  }, schema);

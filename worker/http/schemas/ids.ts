import { z } from "@hono/zod-openapi";

/** A numeric path id; a malformed one answers 404 like an unknown one (see router's defaultHook). */
export const IdParam = z
  .string()
  .regex(/^\d{1,15}$/)
  .transform(Number)
  .openapi({ type: "integer", example: "1" });

export const AccountParams = z.object({
  account_id: IdParam.openapi({
    param: { name: "account_id", in: "path" },
    type: "integer",
    example: "1",
  }),
});

/** Account path params plus the resource's own. */
export const accountParams = <T extends z.ZodRawShape>(shape: T) => AccountParams.extend(shape);

export const idParams = z.object({
  id: IdParam.openapi({ param: { name: "id", in: "path" }, type: "integer", example: "1" }),
});

import { OpenAPIHono } from "@hono/zod-openapi";
import type { Env } from "hono";
import { ApiError } from "../lib/errors";
import { invalidInput } from "../lib/zod-details";

/** Every router is built here, so no sub-router misses the shared validation hook. */
export function createRouter<E extends Env>() {
  return new OpenAPIHono<E>({
    defaultHook: (result) => {
      if (!result.success) {
        if (result.target === "param") {
          throw new ApiError("not_found");
        }
        throw invalidInput(result.error);
      }
    },
  });
}

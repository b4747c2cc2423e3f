import { OpenAPIHono } from "@hono/zod-openapi";
import type { Env } from "hono";
import { ApiError, invalidFields } from "../lib/errors";
import { zodDetails } from "../lib/zod-details";

export { zodDetails };

/** Every router is built here, so no sub-router misses the shared validation hook. */
export function createRouter<E extends Env>() {
  return new OpenAPIHono<E>({
    defaultHook: (result) => {
      if (!result.success) {
        if (result.target === "param") {
          throw new ApiError("not_found");
        }
        const details = zodDetails(result.error);
        throw invalidFields(details, details.map((d) => `${d.path}: ${d.message}`).join("; "));
      }
    },
  });
}

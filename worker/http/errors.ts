import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { Deps } from "../events/deps";
import { ApiError, type ErrorCode, errorStatus } from "../lib/errors";
import { createLogger } from "../lib/logger";

export const ErrorSchema = z
  .object({
    error: z.string().openapi({ example: "Resource could not be found" }),
    code: z.enum(Object.keys(errorStatus) as [ErrorCode, ...ErrorCode[]]),
    details: z.array(z.object({ path: z.string(), message: z.string() })),
    request_id: z.string(),
  })
  .openapi("Error");

const errorContent = (description: string) => ({
  description,
  content: { "application/json": { schema: ErrorSchema } },
});

/** Error responses declared on routes, so the OpenAPI document lists them. */
export const errorResponses = {
  400: errorContent("Malformed request"),
  401: errorContent("Missing or invalid credentials"),
  403: errorContent("The caller's role may not do this"),
  404: errorContent("Unknown record, or one of another account"),
  413: errorContent("Request body too large"),
  415: errorContent("Unsupported content type"),
  422: errorContent("Validation failed"),
} as const;

export function errorBody(err: ApiError, requestId: string) {
  return { error: err.message, code: err.code, details: err.details, request_id: requestId };
}

function fromHttpException(err: HTTPException): ApiError {
  const message = err.message || undefined;
  switch (err.status) {
    case 400:
      return new ApiError(/json/i.test(err.message) ? "malformed_json" : "bad_request", message);
    case 401:
      return new ApiError("unauthorized", message);
    case 404:
      return new ApiError("not_found");
    case 413:
      return new ApiError("payload_too_large");
    case 415:
      return new ApiError("unsupported_media_type");
    default:
      return new ApiError(err.status >= 500 ? "internal_error" : "bad_request", message);
  }
}

/** The single error path: ApiError and Hono's HTTPException keep their meaning, anything else is a bug. */
export function onError(err: Error, c: Context) {
  const requestId = (c.get("requestId") as string | undefined) ?? "unknown";
  let apiError: ApiError;
  if (err instanceof ApiError) {
    apiError = err;
  } else if (err instanceof HTTPException) {
    apiError = fromHttpException(err);
  } else {
    // A bug: the client gets the request id, the log gets the stack.
    const log = (c.get("deps") as Deps | undefined)?.log ?? createLogger({ request_id: requestId });
    log.error("unhandled error", { error: err, method: c.req.method, path: c.req.path });
    apiError = new ApiError("internal_error");
  }
  for (const [name, value] of Object.entries(apiError.headers)) {
    c.header(name, value);
  }
  return c.json(errorBody(apiError, requestId), apiError.status);
}

export function onNotFound(c: Context) {
  const requestId = (c.get("requestId") as string | undefined) ?? "unknown";
  return c.json(errorBody(new ApiError("not_found", "Route not found"), requestId), 404);
}

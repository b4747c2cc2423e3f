import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";

/** Every error code the API can answer with, and its HTTP status. */
export const errorStatus = {
  bad_request: 400,
  malformed_json: 400,
  unauthorized: 401,
  invalid_token: 401,
  not_authorized_for_bots: 401,
  account_suspended: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  validation_failed: 422,
  rate_limited: 429,
  internal_error: 500,
} as const satisfies Record<string, ContentfulStatusCode>;

export type ErrorCode = keyof typeof errorStatus;

export type ErrorDetail = { path: string; message: string };

const defaultMessages: Record<ErrorCode, string> = {
  bad_request: "Bad request",
  malformed_json: "Malformed JSON in request body",
  unauthorized: "You need to sign in or sign up before continuing.",
  invalid_token: "Invalid Access Token",
  not_authorized_for_bots: "Access to this endpoint is not authorized for bots",
  account_suspended: "Account is suspended",
  forbidden: "You are not authorized to do this action",
  not_found: "Resource could not be found",
  method_not_allowed: "Method not allowed",
  conflict: "Conflict",
  payload_too_large: "Request body is too large",
  unsupported_media_type: "Unsupported Media Type",
  validation_failed: "Validation failed",
  rate_limited: "Too many requests",
  internal_error: "Internal server error",
};

/** The one error type: thrown anywhere, rendered by `onError`. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetail[];
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode,
    message?: string,
    details: ErrorDetail[] = [],
    headers: Record<string, string> = {},
  ) {
    super(message ?? defaultMessages[code]);
    this.code = code;
    this.details = details;
    this.headers = headers;
  }

  get status(): ContentfulStatusCode {
    return errorStatus[this.code];
  }
}

/** A 422 for one field, the common case in services. */
export const invalidField = (path: string, message: string) =>
  new ApiError("validation_failed", `${path} ${message}`, [{ path, message }]);

export const notFound = () => new ApiError("not_found");

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

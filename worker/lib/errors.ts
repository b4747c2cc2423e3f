type ContentfulStatusCode = 400 | 401 | 403 | 404 | 405 | 409 | 413 | 415 | 422 | 429 | 500;

/**
 * The one error type of the service, thrown anywhere (services, queries' callers, middleware)
 * and rendered by http/errors.ts `onError`. Its status table lives here so that code below
 * the HTTP layer can throw without importing it.
 *
 * Every error code the API can answer with, and its HTTP status:
 */
export const errorStatus = {
  bad_request: 400,
  malformed_json: 400,
  /** A socket frame that is not one of the client frames (docs/realtime.md). */
  bad_frame: 400,
  unauthorized: 401,
  invalid_token: 401,
  invalid_credentials: 401,
  not_authorized_for_bots: 401,
  account_suspended: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  /** A socket frame over its size limit. */
  frame_too_large: 413,
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
  bad_frame: 'expected {"type":"message.create"|"typing"|"read"|"resume"|"ping", …}',
  unauthorized: "You need to sign in or sign up before continuing.",
  invalid_token: "Invalid Access Token",
  invalid_credentials: "Invalid login credentials. Please try again.",
  not_authorized_for_bots: "Access to this endpoint is not authorized for bots",
  account_suspended: "Account is suspended",
  forbidden: "You are not authorized to do this action",
  not_found: "Resource could not be found",
  method_not_allowed: "Method not allowed",
  conflict: "Conflict",
  payload_too_large: "Request body is too large",
  frame_too_large: "Frame is too large",
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

/**
 * The one 422 builder: a `{path, message}` per problem, and `message` for the body's `error`
 * (by default each problem as `path message`, joined with "; ").
 */
export const invalidFields = (
  details: ErrorDetail[],
  message = details.map((d) => `${d.path} ${d.message}`).join("; "),
) => new ApiError("validation_failed", message, details);

/** A 422 for one field, the common case in services; `summary` replaces `${path} ${message}`. */
export const invalidField = (path: string, message: string, summary?: string) =>
  invalidFields([{ path, message }], summary);

export const notFound = () => new ApiError("not_found");

import { SELF } from "cloudflare:test";
import { checkResponse } from "./expect-schema";

export type ApiResult<T = any> = { status: number; body: T; headers: Headers };

type Options = {
  method?: string;
  token?: string;
  body?: unknown;
  /** Sent as is, without JSON encoding (for malformed-body tests). */
  raw?: BodyInit;
  headers?: Record<string, string>;
};

/**
 * One request against the Worker under test, parsed. A JSON body is checked against the
 * route's declared response schema (errors against the error shape): drift fails the test.
 */
export async function api<T = any>(path: string, opts: Options = {}): Promise<ApiResult<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token !== undefined) {
    headers.api_access_token = opts.token;
  }
  let body: BodyInit | undefined = opts.raw;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers["content-type"] ??= "application/json";
  } else if (opts.raw !== undefined && !(opts.raw instanceof FormData)) {
    headers["content-type"] ??= "application/json";
  }
  const method = opts.method ?? (body === undefined ? "GET" : "POST");
  const res = await SELF.fetch(`http://parley.test${path}`, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // Non-JSON bodies are returned as text so tests can assert on them.
  }
  if (text && res.headers.get("content-type")?.includes("application/json")) {
    checkResponse(method, path, res.status, parsed);
  }
  return { status: res.status, body: parsed as T, headers: res.headers };
}

/** Asserts the shared error body shape and returns it. */
export function expectError(result: ApiResult, status: number, code?: string) {
  if (result.status !== status) {
    throw new Error(`expected ${status}, got ${result.status}: ${JSON.stringify(result.body)}`);
  }
  const body = result.body as {
    error: unknown;
    code: unknown;
    details: unknown;
    request_id: unknown;
  };
  if (
    typeof body?.error !== "string" ||
    typeof body.code !== "string" ||
    !Array.isArray(body.details) ||
    typeof body.request_id !== "string"
  ) {
    throw new Error(`not the error shape: ${JSON.stringify(result.body)}`);
  }
  if (code !== undefined && body.code !== code) {
    throw new Error(`expected code ${code}, got ${String(body.code)}`);
  }
  return body as {
    error: string;
    code: string;
    details: { path: string; message: string }[];
    request_id: string;
  };
}

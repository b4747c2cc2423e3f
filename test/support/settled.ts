import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import worker from "../../worker";
import type { Bindings } from "../../worker/env";
import { checkResponse } from "./expect-schema";
import type { ApiResult } from "./http";

type Options = {
  method?: string;
  token?: string;
  body?: unknown;
  /** The request's Host (its URL's host): `parley.test` unless told. */
  host?: string;
  headers?: Record<string, string>;
  /** Bindings replaced for this request (`undefined` unsets one). */
  env?: Partial<Bindings>;
};

/**
 * One JSON request to the Worker's own fetch handler, answered once the work it left for after
 * the response (waitUntil: mail, caches) is done too, so a test can look at what it did.
 */
export async function apiSettled<T = any>(path: string, opts: Options = {}): Promise<ApiResult<T>> {
  const headers: Record<string, string> = {
    "cf-connecting-ip": `198.51.100.${Math.floor(Math.random() * 250) + 1}`,
    ...opts.headers,
  };
  if (opts.token !== undefined) {
    headers.api_access_token = opts.token;
  }
  if (opts.body !== undefined) {
    headers["content-type"] = "application/json";
  }
  const method = opts.method ?? (opts.body === undefined ? "GET" : "POST");
  const ctx = createExecutionContext();
  const res = await worker.fetch(
    new Request(`http://${opts.host ?? "parley.test"}${path}`, {
      method,
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    }),
    { ...env, ...opts.env } as Bindings,
    ctx,
  );
  const text = await res.text();
  await waitOnExecutionContext(ctx);
  const body = text ? JSON.parse(text) : null;
  checkResponse(method, path, res.status, body);
  return { status: res.status, body, headers: res.headers };
}

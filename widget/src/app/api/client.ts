/** An answer from the API that is not a success. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Seconds, from Retry-After on 429. */
    readonly retryAfter: number,
  ) {
    super(message);
  }
}

/** No answer at all (offline, connection dropped): the request may or may not have landed. */
export class NetworkError extends Error {}

export const apiBase = () => `${location.origin}/public/api/v1`;

type RequestOptions = { method?: string; json?: unknown; form?: FormData };

export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { json, form } = options;
  const hasBody = json !== undefined || form !== undefined;
  let res: Response;
  try {
    res = await fetch(`${apiBase()}${path}`, {
      method: options.method ?? (hasBody ? "POST" : "GET"),
      headers: json === undefined ? undefined : { "content-type": "application/json" },
      body: form ?? (json === undefined ? undefined : JSON.stringify(json)),
    });
  } catch (err) {
    throw new NetworkError(err instanceof Error ? err.message : String(err));
  }
  const body = await res.json().catch(() => null);
  if (!res.ok) {
    throw new ApiError(
      res.status,
      body?.code ?? "error",
      typeof body?.error === "string" ? body.error : res.statusText,
      Number(res.headers.get("retry-after")) || 0,
    );
  }
  return body as T;
}

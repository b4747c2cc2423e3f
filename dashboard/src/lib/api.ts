/** An answer from the API that is not a success, in the API's one error shape. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** No answer at all: the request may or may not have landed. */
export class NetworkError extends Error {}

type Options = { method?: string; json?: unknown; form?: FormData; token?: string | null };

/** Called when a request is refused for its token (signed out elsewhere, token reset). */
let onUnauthorized: () => void = () => undefined;
export const setUnauthorizedHandler = (fn: () => void) => {
  onUnauthorized = fn;
};

let currentToken: string | null = null;
export const setToken = (token: string | null) => {
  currentToken = token;
};

/** A call to this origin's API; the token goes in the `api_access_token` header, never a URL. */
export async function request<T>(path: string, options: Options = {}): Promise<T> {
  const { json, form } = options;
  const token = options.token === undefined ? currentToken : options.token;
  const headers: Record<string, string> = {};
  if (json !== undefined) {
    headers["content-type"] = "application/json";
  }
  if (token) {
    headers.api_access_token = token;
  }
  let res: Response;
  try {
    res = await fetch(path, {
      method: options.method ?? (json !== undefined || form ? "POST" : "GET"),
      headers,
      body: form ?? (json === undefined ? undefined : JSON.stringify(json)),
      credentials: "omit",
    });
  } catch (err) {
    throw new NetworkError(err instanceof Error ? err.message : String(err));
  }
  const body = await res.json().catch(() => null);
  if (!res.ok) {
    if (res.status === 401 && token) {
      onUnauthorized();
    }
    throw new ApiError(
      res.status,
      body?.code ?? "error",
      typeof body?.error === "string" ? body.error : res.statusText,
    );
  }
  return body as T;
}

/** The account API of one account. */
export const acct = (accountId: number, path: string) => `/api/v1/accounts/${accountId}${path}`;

export const query = (params: Record<string, string | number | undefined | null>) => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v !== undefined && v !== null && v !== "") {
      q.set(k, String(v));
    }
  }
  const s = q.toString();
  return s ? `?${s}` : "";
};

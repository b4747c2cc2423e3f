/**
 * The local demo's facts, which `npm start` passes as PARLEY_DEMO (a query string:
 * `account=1&admin=…&agent=…&widget=…&api_inbox=…&platform=…`). The front door and /docs show them, so a
 * newcomer can try the API at once; only to a request addressed to a loopback host, and never
 * when the variable is unset (every deployment).
 */
export type DemoFacts = {
  account: string;
  admin: string;
  agent: string;
  widget: string | null;
  apiInbox: string | null;
  platform: string | null;
};

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);
const TOKEN = /^[A-Za-z0-9_-]{1,64}$/;

export function demoFacts(raw: string | undefined, requestUrl: string): DemoFacts | null {
  if (!raw || !LOOPBACK.has(new URL(requestUrl).hostname)) {
    return null;
  }
  const p = new URLSearchParams(raw);
  const get = (name: string) => {
    const v = p.get(name);
    return v && TOKEN.test(v) ? v : null;
  };
  const account = get("account");
  const admin = get("admin");
  const agent = get("agent");
  if (!account || !admin || !agent) {
    return null;
  }
  return {
    account,
    admin,
    agent,
    widget: get("widget"),
    apiInbox: get("api_inbox"),
    platform: get("platform"),
  };
}

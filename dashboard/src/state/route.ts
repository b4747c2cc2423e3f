import { signal } from "../lib/signal";

/** Where the app is: the path below /app, parsed. */
export type Route =
  | { name: "signin" }
  | { name: "forgot" }
  | { name: "home" }
  | { name: "inbox"; accountId: number; conversationId: number | null; pane: "thread" | "contact" }
  | { name: "settings"; accountId: number; section: string }
  | { name: "profile"; accountId: number };

export const BASE = "/app";

export function parseRoute(pathname: string, search = ""): Route {
  const rest = pathname.startsWith(BASE) ? pathname.slice(BASE.length) : pathname;
  const parts = rest.split("/").filter(Boolean);
  if (parts[0] === "login") {
    return { name: "signin" };
  }
  if (parts[0] === "forgot") {
    return { name: "forgot" };
  }
  const accountId = Number(parts[1]);
  if (parts[0] === "accounts" && Number.isInteger(accountId) && accountId > 0) {
    if (parts[2] === "settings") {
      return { name: "settings", accountId, section: parts[3] ?? "inboxes" };
    }
    if (parts[2] === "profile") {
      return { name: "profile", accountId };
    }
    const id = Number(parts[3]);
    return {
      name: "inbox",
      accountId,
      conversationId: parts[2] === "conversations" && Number.isInteger(id) && id > 0 ? id : null,
      pane: new URLSearchParams(search).get("pane") === "contact" ? "contact" : "thread",
    };
  }
  return { name: "home" };
}

export const route = signal<Route>(parseRoute(location.pathname, location.search));

/** Moves to an app path (below /app) without a reload. */
export function go(path: string, replace = false) {
  const url = `${BASE}${path}`;
  if (replace) {
    history.replaceState(null, "", url);
  } else if (location.pathname + location.search !== url) {
    history.pushState(null, "", url);
  }
  route.value = parseRoute(location.pathname, location.search);
}

addEventListener("popstate", () => {
  route.value = parseRoute(location.pathname, location.search);
});

export const conversationPath = (accountId: number, id: number | null) =>
  id === null
    ? `/accounts/${accountId}/conversations`
    : `/accounts/${accountId}/conversations/${id}`;

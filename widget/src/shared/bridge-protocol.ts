/**
 * Messages between the loader (on the host page) and the app (in the iframe). Both sides post
 * with the other's exact origin as targetOrigin, check `event.origin` and `event.source`, and
 * ignore anything that is not a known type of this version.
 */
export const BRIDGE_SOURCE = "parley";
export const BRIDGE_VERSION = 1;

/** Loader → app. */
export type HostCommand =
  | { type: "init"; payload: { stored: Record<string, unknown> } }
  /** `url`: the host page's address (the referer of Chatwoot's webwidget.triggered event). */
  | { type: "state"; payload: { open: boolean; url?: string } }
  | { type: "set-user"; payload: { identifier: string; attributes: UserAttributes } }
  | { type: "set-custom-attributes"; payload: { attributes: Record<string, unknown> } }
  | { type: "set-locale"; payload: { locale: string } }
  | { type: "reset"; payload: Record<string, never> };

/** App → loader. */
export type AppEvent =
  | { type: "ready"; payload: Record<string, never> }
  | { type: "unread"; payload: { count: number } }
  | { type: "message"; payload: HostMessage }
  | { type: "request-close"; payload: Record<string, never> }
  /** color: the inbox colour as #rrggbb (the loader picks the icon colour that reads on it). */
  | { type: "session"; payload: { active: boolean; color: string } }
  | { type: "store"; payload: { name: string; value: unknown } };

export type UserAttributes = {
  name?: string;
  email?: string;
  avatar_url?: string;
  identifier_hash?: string;
};

/** What the host page learns of a message: no ids of other people, no internals. */
export type HostMessage = {
  id: number;
  content: string | null;
  message_type: number;
  created_at: number;
  sender: { name: string; type: string } | null;
};

export type Envelope<T extends { type: string; payload: unknown }> = T & {
  source: typeof BRIDGE_SOURCE;
  v: typeof BRIDGE_VERSION;
};

export const HOST_COMMANDS: readonly HostCommand["type"][] = [
  "init",
  "state",
  "set-user",
  "set-custom-attributes",
  "set-locale",
  "reset",
];
export const APP_EVENTS: readonly AppEvent["type"][] = [
  "ready",
  "unread",
  "message",
  "request-close",
  "session",
  "store",
];

export function envelope<T extends { type: string; payload: unknown }>(message: T): Envelope<T> {
  return { ...message, source: BRIDGE_SOURCE, v: BRIDGE_VERSION };
}

/** The message if it is a well-formed envelope (of one of `types`, when given), else null. */
export function openEnvelope<T extends { type: string; payload: unknown }>(
  data: unknown,
  types?: readonly T["type"][],
): T | null {
  if (typeof data !== "object" || data === null) {
    return null;
  }
  const d = data as Record<string, unknown>;
  if (
    d.source !== BRIDGE_SOURCE ||
    d.v !== BRIDGE_VERSION ||
    !(types ?? [d.type]).includes(d.type as never)
  ) {
    return null;
  }
  return { type: d.type, payload: d.payload ?? {} } as T;
}

/**
 * The chat keeps its session in the host page's storage (first-party), not the iframe's:
 * browsers that block or wipe third-party storage would forget the visitor on every page.
 */
export const storageKey = (inbox: string) => `parley:${inbox}`;

import type { FunctionComponent } from "preact";
import type { InboxSettings } from "../api/types";
import type { LiveState } from "../realtime/socket";
import { signal } from "./signal";

/** The inbox's public settings; null until loaded. */
export const settings = signal<InboxSettings | null>(null);
export const loadError = signal(false);
/** Whether the visitor sees the chat (the host's panel is open). */
export const isOpen = signal(false);
/** Agent messages the visitor has not seen yet. */
export const unread = signal(0);
export const connection = signal<LiveState | "idle">("idle");
export const online = signal(typeof navigator === "undefined" ? true : navigator.onLine);
/** Bumped to ask the composer to take the focus (the panel opened). */
export const focusRequest = signal(0);

export function requestFocus() {
  focusRequest.value++;
}

/** The help-center home (a lazy chunk, loaded only for an inbox with a portal); wraps the chat. */
export const helpHome = signal<FunctionComponent | null>(null);

/** The visitor went back to the help center's articles from a conversation. */
export const browsingHelp = signal(false);

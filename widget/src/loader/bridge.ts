import {
  type AppEvent,
  BRIDGE_SOURCE,
  BRIDGE_VERSION,
  type Envelope,
  envelope,
  type HostCommand,
} from "../shared/bridge-protocol";

export type Bridge = { post(command: HostCommand): void };

/**
 * Talks to the app in the iframe: posts only to the Parley origin, and accepts only messages
 * from that iframe's window at that origin, in this version's envelope. A sandboxed frame's
 * origin is opaque ("null"): no origin names it, so posts go to "*", still only to that
 * iframe's window, which only this page and the chat itself can navigate.
 */
export function createBridge(
  frameWindow: () => Window | null | undefined,
  origin: string,
  onEvent: (event: AppEvent) => void,
): Bridge {
  addEventListener("message", (e) => {
    const source = frameWindow();
    const message = e.data as Envelope<AppEvent> | null;
    // Any type: onEvent acts on the known ones only (the list would cost the loader's bytes),
    // and the envelope is handed on as it is (its extra fields are never read).
    if (
      source &&
      e.source === source &&
      e.origin === origin &&
      message?.source === BRIDGE_SOURCE &&
      message.v === BRIDGE_VERSION
    ) {
      onEvent(message);
    }
  });
  return {
    post(command) {
      frameWindow()?.postMessage(envelope(command), origin === "null" ? "*" : origin);
    },
  };
}

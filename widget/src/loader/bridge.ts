import { type AppEvent, envelope, type HostCommand, openEnvelope } from "../shared/bridge-protocol";

export type Bridge = { post(command: HostCommand): void };

/**
 * Talks to the app in the iframe: posts only to the Parley origin, and accepts only messages
 * from that iframe's window at that origin.
 */
export function createBridge(
  frameWindow: () => Window | null | undefined,
  origin: string,
  onEvent: (event: AppEvent) => void,
): Bridge {
  addEventListener("message", (e) => {
    const source = frameWindow();
    if (!source || e.source !== source || e.origin !== origin) {
      return;
    }
    // Any type: onEvent acts on the known ones only (the list would cost the loader's bytes).
    const message = openEnvelope<AppEvent>(e.data);
    if (message) {
      onEvent(message);
    }
  });
  return {
    post(command) {
      frameWindow()?.postMessage(envelope(command), origin);
    },
  };
}

import {
  type AppEvent,
  envelope,
  HOST_COMMANDS,
  type HostCommand,
  openEnvelope,
} from "../shared/bridge-protocol";
import { config, embedded } from "./config";

/** Posts to the host page, at its exact origin only. */
export function notifyHost(event: AppEvent) {
  if (embedded()) {
    window.parent.postMessage(envelope(event), config.parentOrigin as string);
  }
}

/** Asks the host page to close the panel (Escape, the header's close button). */
export const requestClose = () => notifyHost({ type: "request-close", payload: {} });

/** Commands from the host page: only from the parent window, at the origin the loader gave. */
export function listenToHost(handle: (command: HostCommand) => void) {
  addEventListener("message", (e) => {
    if (!embedded() || e.source !== window.parent || e.origin !== config.parentOrigin) {
      return;
    }
    const command = openEnvelope<HostCommand>(e.data, HOST_COMMANDS);
    if (command) {
      handle(command);
    }
  });
}

import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { listenToHost, notifyHost } from "../../widget/src/app/bridge";
import { configure } from "../../widget/src/app/config";
import {
  APP_EVENTS,
  envelope,
  HOST_COMMANDS,
  openEnvelope,
} from "../../widget/src/shared/bridge-protocol";

describe("the bridge envelope", () => {
  it("opens only versioned Parley envelopes of the expected types", () => {
    const ok = envelope({ type: "unread", payload: { count: 2 } });
    expect(ok).toEqual({ source: "parley", v: 1, type: "unread", payload: { count: 2 } });
    expect(openEnvelope(ok, APP_EVENTS)).toEqual({ type: "unread", payload: { count: 2 } });
    expect(openEnvelope({ ...ok, v: 2 }, APP_EVENTS)).toBeNull();
    expect(openEnvelope({ ...ok, source: "other" }, APP_EVENTS)).toBeNull();
    expect(openEnvelope({ ...ok, type: "eval" }, APP_EVENTS)).toBeNull();
    expect(openEnvelope(ok, HOST_COMMANDS)).toBeNull();
    expect(openEnvelope("parley", APP_EVENTS)).toBeNull();
  });
});

describe("the app's side of the bridge", () => {
  const parent = { postMessage: vi.fn() };

  beforeEach(() => {
    Object.defineProperty(window, "parent", { configurable: true, get: () => parent });
    configure("#inbox=inbox-1&origin=https%3A%2F%2Fshop.example", "en");
  });

  afterEach(() => {
    Object.defineProperty(window, "parent", { configurable: true, get: () => window });
    parent.postMessage.mockReset();
  });

  it("posts to the host page at its exact origin, never '*'", () => {
    notifyHost({ type: "unread", payload: { count: 1 } });
    expect(parent.postMessage).toHaveBeenCalledWith(
      { source: "parley", v: 1, type: "unread", payload: { count: 1 } },
      "https://shop.example",
    );
  });

  it("takes commands only from the parent window at the host's origin", () => {
    const handle = vi.fn();
    listenToHost(handle);
    const command = envelope({ type: "state", payload: { open: true } });
    const send = (origin: string, source: unknown, data: unknown = command) =>
      window.dispatchEvent(new MessageEvent("message", { data, origin, source: source as Window }));
    send("https://evil.example", parent);
    send("https://shop.example", window);
    send("https://shop.example", parent, { ...command, v: 0 });
    expect(handle).not.toHaveBeenCalled();
    send("https://shop.example", parent);
    expect(handle).toHaveBeenCalledWith({ type: "state", payload: { open: true } });
  });
});

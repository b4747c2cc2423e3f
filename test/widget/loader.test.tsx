import { afterEach, beforeEach, describe, expect, it, type Mock, vi } from "vitest";
import { envelope } from "../../widget/src/shared/bridge-protocol";

const PARLEY = "https://chat.example";

// The loader imports the preview from the Parley origin; here, the module from the source.
vi.mock("https://chat.example/widget-preview.js", () => import("../../widget/src/loader/preview"));
type Sdk = {
  open(): void;
  close(): void;
  setUser(id: string, attrs?: object): void;
  reset(): void;
  on(name: string, fn: (detail?: unknown) => void): void;
};
type HostWindow = Window & { $parley?: Sdk; parleySettings?: object };
const w = window as HostWindow;

type FakeFrame = HTMLElement & { src: string; contentWindow: { postMessage: Mock } };

/**
 * happy-dom would try (and loudly refuse) to load a real iframe: the loader gets an element
 * standing in for it, with a window that records what is posted to it.
 */
function fakeIframes() {
  const create = document.createElement.bind(document);
  vi.spyOn(document, "createElement").mockImplementation(((tag: string) => {
    if (tag !== "iframe") {
      return create(tag);
    }
    const frame = create("fake-iframe") as FakeFrame;
    frame.contentWindow = { postMessage: vi.fn() };
    return frame;
  }) as typeof document.createElement);
}

/** The loader builds nothing while the page loads: it is up once it says parley:ready. */
async function boot() {
  vi.resetModules();
  const up = new Promise((resolve) => addEventListener("parley:ready", resolve, { once: true }));
  await import("../../widget/src/loader/index");
  await up;
  const root = document.querySelector("parley-widget")?.shadowRoot as ShadowRoot;
  return {
    sdk: w.$parley as Sdk,
    root,
    button: root.querySelector("button") as HTMLButtonElement,
    frame: () => root.querySelector("fake-iframe") as FakeFrame | null,
    /** The chat's frame, once created (in a task after the click or call that asked for it). */
    loaded: () =>
      vi.waitFor(() => {
        const frame = root.querySelector("fake-iframe");
        if (!frame) {
          throw new Error("no chat frame yet");
        }
        return frame as FakeFrame;
      }),
  };
}

/** A message from the chat frame's window (or any other). */
function fromFrame(data: unknown, source: unknown, origin = PARLEY) {
  window.dispatchEvent(new MessageEvent("message", { data, origin, source: source as Window }));
}

beforeEach(() => {
  w.parleySettings = { inbox: "inbox-1", baseUrl: `${PARLEY}/` };
  localStorage.clear();
  fakeIframes();
});

afterEach(() => {
  document.querySelector("parley-widget")?.remove();
  delete w.$parley;
  delete w.parleySettings;
  vi.restoreAllMocks();
});

describe("the loader", () => {
  it("paints a labelled launcher, loads no chat yet, and adds only $parley", async () => {
    const before = new Set(Object.getOwnPropertyNames(window));
    const { button, frame } = await boot();
    expect(button.getAttribute("aria-label")).toBe("Open chat");
    expect(button.getAttribute("aria-expanded")).toBe("false");
    expect(button.type).toBe("button");
    expect(frame()).toBeNull();
    expect(Object.getOwnPropertyNames(window).filter((k) => !before.has(k))).toEqual(["$parley"]);
  });

  it("loads the chat on hover and opens it on click, telling the host page", async () => {
    const { sdk, button, frame } = await boot();
    const opened = vi.fn();
    sdk.on("open", opened);
    button.dispatchEvent(new Event("pointerenter"));
    // Loaded in a task of its own, not inside the host page's input event.
    expect(frame()).toBeNull();
    await vi.waitFor(() => expect(frame()).not.toBeNull());
    const iframe = frame() as FakeFrame;
    expect(iframe.style.display).toBe("none");
    const src = new URL(iframe.src);
    expect(`${src.origin}${src.pathname}`).toBe(`${PARLEY}/frame`);
    expect(Object.fromEntries(new URLSearchParams(src.hash.slice(1)))).toEqual({
      inbox: "inbox-1",
      origin: "https://shop.example",
      lang: expect.any(String),
    });
    button.click();
    // Shown in the next frame, apart from the click.
    await vi.waitFor(() => expect(iframe.style.display).toBe("block"));
    expect(button.getAttribute("aria-expanded")).toBe("true");
    expect(button.getAttribute("aria-label")).toBe("Close chat");
    expect(opened).toHaveBeenCalledOnce();
  });

  it("closes the chat with Escape pressed on the launcher (issue 15)", async () => {
    const { sdk, button, frame } = await boot();
    const closed = vi.fn();
    sdk.on("close", closed);
    button.click();
    await vi.waitFor(() => expect((frame() as FakeFrame).style.display).toBe("block"));
    button.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true }));
    expect(closed).not.toHaveBeenCalled();
    button.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
    await vi.waitFor(() => expect((frame() as FakeFrame).style.display).toBe("none"));
    expect(button.getAttribute("aria-expanded")).toBe("false");
    expect(closed).toHaveBeenCalledOnce();
  });

  it("previews a reply beside the closed launcher: opens on click, dismissible, title cue opt-in", async () => {
    w.parleySettings = { inbox: "inbox-1", baseUrl: `${PARLEY}/`, titleCue: true };
    document.title = "Shop";
    const { sdk, root, frame, loaded } = await boot();
    sdk.open();
    sdk.close();
    const source = (await loaded()).contentWindow;
    const reply = (content: string, message_type = 1) =>
      fromFrame(
        envelope({
          type: "message",
          payload: {
            id: 1,
            content,
            message_type,
            created_at: 1,
            sender: { name: "Ann", type: "user" },
          },
        }),
        source,
      );
    // Only the launcher is there until a preview is shown.
    const buttons = () => [...root.querySelectorAll("button")] as HTMLButtonElement[];
    reply("my own", 0);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(buttons()).toHaveLength(1);
    reply("Your order shipped today.");
    await vi.waitFor(() => expect(buttons()).toHaveLength(3));
    // The × comes first and apart from the card: never on top of its text.
    let [, dismiss, preview] = buttons();
    expect(dismiss?.getAttribute("aria-label")).toBe("Dismiss");
    expect(dismiss?.contains(preview as Node)).toBe(false);
    expect(preview?.contains(dismiss as Node)).toBe(false);
    // The sender's face (initials) and name, then the reply.
    const parts = [...(preview as HTMLElement).querySelectorAll("span")].map((s) => s.textContent);
    expect(parts).toContain("A");
    expect(parts).toContain("Ann");
    expect(parts).toContain("Your order shipped today.");
    expect(document.title).toBe("(1) Shop");
    dismiss?.click();
    expect(buttons()).toHaveLength(1);
    expect(document.title).toBe("Shop");
    // A long reply is cut at a word, with an ellipsis (the card clamps it to two lines).
    reply(`${"Your parcel ships from Frida's warehouse today. ".repeat(8)}`);
    await vi.waitFor(() => expect(buttons()).toHaveLength(3));
    [, , preview] = buttons();
    const text = preview?.lastElementChild?.lastElementChild?.textContent ?? "";
    expect(text.length).toBeLessThanOrEqual(161);
    expect(text).toMatch(/ [A-Za-z']+\.?…$/);
    expect("Your parcel ships from Frida's warehouse today. ".repeat(8)).toContain(
      text.slice(0, -1),
    );
    preview?.click();
    await vi.waitFor(() => expect((frame() as FakeFrame).style.display).toBe("block"));
    expect(buttons()).toHaveLength(1);
    // Open: no preview.
    reply("while open");
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(buttons()).toHaveLength(1);
  });

  it("leaves the tab's title alone by default", async () => {
    document.title = "Shop";
    const { sdk, loaded } = await boot();
    sdk.open();
    sdk.close();
    const source = (await loaded()).contentWindow;
    fromFrame(
      envelope({
        type: "message",
        payload: { id: 1, content: "hi", message_type: 1, created_at: 1, sender: null },
      }),
      source,
    );
    expect(document.title).toBe("Shop");
  });

  it("hears only its own frame at the Parley origin", async () => {
    const { sdk, button, loaded } = await boot();
    sdk.open();
    const source = (await loaded()).contentWindow;
    const unread = envelope({ type: "unread", payload: { count: 3 } });
    sdk.close();
    await vi.waitFor(() => expect(button.getAttribute("aria-expanded")).toBe("false"));
    fromFrame(unread, source, "https://evil.example");
    fromFrame(unread, window);
    fromFrame({ ...unread, v: 9 }, source);
    expect(button.getAttribute("aria-label")).toBe("Open chat");
    fromFrame(unread, source);
    expect(button.getAttribute("aria-label")).toBe("Open chat (3 unread)");
  });

  it("sandboxes the chat's frame on Parley's own origin: posts to it with *, hears only null from it", async () => {
    w.parleySettings = { inbox: "inbox-1", baseUrl: `${location.origin}/` };
    const { sdk, button, loaded } = await boot();
    sdk.open();
    const frame = (await loaded()) as FakeFrame & { sandbox?: string };
    // An opaque origin, so that Chromium gives the chat a process of its own (issue 24).
    expect(frame.sandbox).toBe(
      "allow-scripts allow-forms allow-popups allow-popups-to-escape-sandbox",
    );
    const source = frame.contentWindow;
    const unread = envelope({ type: "unread", payload: { count: 2 } });
    sdk.close();
    await vi.waitFor(() => expect(button.getAttribute("aria-expanded")).toBe("false"));
    fromFrame(unread, source, location.origin);
    fromFrame(unread, window, "null");
    expect(button.getAttribute("aria-label")).toBe("Open chat");
    fromFrame(envelope({ type: "ready", payload: {} }), source, "null");
    fromFrame(unread, source, "null");
    expect(button.getAttribute("aria-label")).toBe("Open chat (2 unread)");
    expect(source.postMessage.mock.calls.map(([, origin]) => origin)).toEqual(["*", "*"]);
  });

  it("leaves the frame of another site unsandboxed", async () => {
    const { sdk, loaded } = await boot();
    sdk.open();
    expect(((await loaded()) as FakeFrame & { sandbox?: string }).sandbox).toBeUndefined();
  });

  it("posts only to the Parley origin, and holds SDK calls until the chat is ready", async () => {
    localStorage.setItem("parley:inbox-1", JSON.stringify({ s: { session: { sourceId: "s1" } } }));
    const { sdk, loaded } = await boot();
    sdk.setUser("42", { name: "Ann" });
    sdk.open();
    const target = (await loaded()).contentWindow;
    const post = target.postMessage;
    expect(post).not.toHaveBeenCalled();
    fromFrame(envelope({ type: "ready", payload: {} }), target);
    expect(post.mock.calls.map(([m, origin]) => [(m as { type: string }).type, origin])).toEqual([
      ["init", PARLEY],
      ["set-user", PARLEY],
      ["state", PARLEY],
    ]);
    expect(post.mock.calls[0]?.[0]).toMatchObject({
      payload: { stored: { session: { sourceId: "s1" } } },
    });
  });

  it("tells the chat each open and close with the page's address (webwidget.triggered's referer)", async () => {
    history.replaceState(null, "", "/pricing?plan=pro");
    const { sdk, loaded } = await boot();
    sdk.open();
    const target = (await loaded()).contentWindow;
    fromFrame(envelope({ type: "ready", payload: {} }), target);
    sdk.close();
    sdk.open();
    const states = target.postMessage.mock.calls
      .map(([m]) => m as { type: string; payload: unknown })
      .filter((m) => m.type === "state")
      .map((m) => m.payload);
    const url = "https://shop.example/pricing?plan=pro";
    expect(states).toEqual([
      { open: true, url },
      { open: false, url },
      { open: true, url },
    ]);
    history.replaceState(null, "", "/");
  });

  it("keeps the chat's data in the host page's storage, and reset() wipes it", async () => {
    const { sdk, loaded } = await boot();
    sdk.open();
    const source = (await loaded()).contentWindow;
    fromFrame(
      envelope({ type: "store", payload: { name: "session", value: { sourceId: "s2" } } }),
      source,
    );
    fromFrame(envelope({ type: "session", payload: { active: true, color: "#ff0000" } }), source);
    expect(JSON.parse(localStorage.getItem("parley:inbox-1") ?? "{}")).toEqual({
      s: { session: { sourceId: "s2" } },
      c: "#ff0000",
      a: true,
    });
    sdk.reset();
    expect(JSON.parse(localStorage.getItem("parley:inbox-1") ?? "{}")).toEqual({});
  });

  it("stays out of the way when loaded twice", async () => {
    await boot();
    const first = w.$parley;
    vi.resetModules();
    await import("../../widget/src/loader/index");
    // Its own boot waits for an idle period too.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(w.$parley).toBe(first);
    expect(document.querySelectorAll("parley-widget")).toHaveLength(1);
  });
});

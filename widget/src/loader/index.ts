import {
  type AppEvent,
  type HostCommand,
  type HostMessage,
  storageKey,
} from "../shared/bridge-protocol";
import { type Bridge, createBridge } from "./bridge";
import { el } from "./dom";
import { createFrame, type Frame } from "./frame";
import { labelsFor } from "./labels";
import { createLauncher } from "./launcher";

/** `window.parleySettings`, read once when the loader runs. */
type ParleySettings = {
  inbox?: string;
  baseUrl?: string;
  locale?: string;
  position?: "left" | "right";
  color?: string;
  /** Puts "(1)" before the tab's title while a reply waits unseen (off by default). */
  titleCue?: boolean;
  /** "light" or "dark"; by default the chat follows the visitor's system (prefers-color-scheme). */
  theme?: string;
};
type SdkEvent = "ready" | "message" | "open" | "close";
type Listener = (detail?: unknown) => void;
/** What the host page's storage holds: colour, an open conversation, the app's own data. */
type Stored = { c?: string; a?: boolean; s?: Record<string, unknown> };

type HostWindow = Window & { $parley?: unknown; parleySettings?: ParleySettings };
const w = window as HostWindow;
const script = document.currentScript as HTMLScriptElement | null;

/**
 * `fn` once the main thread is idle, at most 2 s from now. Safari has no requestIdleCallback:
 * there setTimeout reads the options as a delay of NaN, so 0 (a byte-cheap fallback).
 */
const idle = (fn: () => unknown) =>
  (w.requestIdleCallback ?? (setTimeout as typeof requestIdleCallback))(fn, { timeout: 2000 });

function start(settings: ParleySettings, inbox: string) {
  const side = settings.position === "left" ? "left" : "right";
  // An explicit locale wins in the app over the inbox's; the page's language comes after both.
  let locale = settings.locale;
  const lang = document.documentElement.lang || navigator.language;
  const key = storageKey(inbox);
  // Read on first need: the host's storage answers through a synchronous call to the browser
  // (1-10 ms of the host's main thread on a fresh profile), kept out of the launcher's task.
  let stored: Stored | undefined;
  const read = () => {
    try {
      stored ??= JSON.parse(localStorage.getItem(key) as string) ?? {};
    } catch {
      stored = {};
    }
    return stored as Stored;
  };
  const save = () => {
    try {
      localStorage.setItem(key, JSON.stringify(stored));
    } catch {}
  };

  const host = el("parley-widget" as "div", "all:initial");
  const root = host.attachShadow({ mode: "open" });
  const launcher = createLauncher(root, side);
  // The inbox's colour from the first paint: as the site configured it or the embed snippet
  // carries it (data-color), else as the chat last reported it, else Chatwoot's default. Once
  // the storage is read, the colour the chat last reported wins (the inbox's may have changed).
  let color = settings.color ?? script?.dataset.color ?? read().c ?? "#1f93ff";
  launcher.setColor(color);
  launcher.setLabels(labelsFor(locale ?? lang));

  const listeners: Partial<Record<SdkEvent, Set<Listener>>> = {};
  const emit = (name: SdkEvent, detail?: unknown) => {
    for (const fn of listeners[name] ?? []) {
      try {
        fn(detail);
      } catch (err) {
        // A host listener's bug surfaces on the host's console without stopping the others.
        setTimeout(() => {
          throw err;
        });
      }
    }
  };

  let frame: Frame | undefined;
  let mounted = false;
  let ready = false;
  let isOpen = false;
  let queue: HostCommand[] = [];
  const theme = settings.theme ?? script?.dataset.theme;
  // The Parley origin and the bridge to it are worked out with the chat's frame: nothing the
  // launcher's first paint needs.
  let base: string;
  let bridge: Bridge;
  const send = (command: HostCommand) => (ready ? bridge.post(command) : queue.push(command));
  const postState = () =>
    bridge.post({ type: "state", payload: { open: isOpen, url: location.href } });

  function load() {
    if (frame) {
      return;
    }
    base = (settings.baseUrl ?? new URL(".", script?.src ?? location.href).href).replace(
      /\/+$/,
      "",
    );
    // On Parley's own origin (its help center, /demo) a frame of that origin would share the
    // page's process and main thread: sandboxed, its origin is opaque and its process its own.
    const origin = new URL(base).origin;
    const sandboxed = origin === location.origin;
    bridge = createBridge(() => frame?.iframe.contentWindow, sandboxed ? "null" : origin, onEvent);
    const params = new URLSearchParams({ inbox, origin: location.origin, lang });
    if (locale) {
      params.set("locale", locale);
    }
    if (theme) {
      params.set("theme", theme);
    }
    frame = createFrame(
      root,
      `${base}/frame#${params}`,
      labelsFor(locale ?? lang).title,
      side,
      sandboxed,
    );
  }

  /** Loads the chat in a task of its own, never inside the host page's input event; then `next`. */
  const preload = (next?: () => void) =>
    setTimeout(() => {
      load();
      next?.();
    });

  function onEvent(event: AppEvent) {
    if (event.type === "ready") {
      ready = true;
      bridge.post({ type: "init", payload: { stored: read().s ?? {} } });
      for (const command of queue) {
        bridge.post(command);
      }
      queue = [];
      postState();
    } else if (event.type === "unread") {
      launcher.setUnread(event.payload.count);
    } else if (event.type === "message") {
      const m = event.payload;
      // Closed chat, a new reply: a short preview beside the launcher (and the title cue).
      if (!isOpen && m.message_type === 1 && m.content) {
        showPreview(m);
      }
      emit("message", m);
    } else if (event.type === "request-close") {
      setOpen(false);
    } else if (event.type === "session") {
      read().c = color = event.payload.color;
      read().a = event.payload.active;
      save();
      launcher.setColor(color);
    } else if (event.type === "store") {
      read().s = { ...read().s, [event.payload.name]: event.payload.value };
      save();
    }
  }

  function setOpen(open: boolean) {
    hidePreview();
    if (open === isOpen) {
      return;
    }
    isOpen = open;
    const hadFocus = root.activeElement === frame?.iframe;
    // The host's click only takes note: the frame is created in a task of its own, then panel
    // and launcher change together in the next frame (focus() there lays out what that frame
    // lays out anyway). Each step stays short on a slow phone too.
    preload(() =>
      requestAnimationFrame(() => {
        const f = frame as Frame;
        const modal = f.show(isOpen);
        launcher.setOpen(isOpen, modal);
        // Full screen on a phone, the page behind the chat does not scroll.
        document.documentElement.style.overflow = modal ? "hidden" : "";
        if (isOpen) {
          // A frame still loading is left to take the focus itself once its chat is up: given
          // to it now, Chromium can swap the loading frame for the chat's process and keep the
          // keys on this page while both documents say the chat has the focus.
          ready && f.iframe.focus();
        } else if (hadFocus) {
          launcher.button.focus();
        }
      }),
    );
    if (ready) {
      postState();
    }
    emit(open ? "open" : "close");
  }

  launcher.button.addEventListener("click", () => setOpen(!isOpen));
  const pageTitle = document.title;
  // The preview (widget-preview.js) exists only while shown.
  let preview: HTMLElement | undefined;
  function hidePreview() {
    if (preview) {
      // Only with a preview shown: a title written on every open costs a call to the browser.
      preview.remove();
      preview = undefined;
      document.title = pageTitle;
    }
  }
  function showPreview(m: HostMessage) {
    import(/* @vite-ignore */ `${base}/widget-preview.js`)
      .then((module: typeof import("./preview")) => {
        // Opened since: not shown. Replies in a row resolve in order: the newest stays.
        if (!isOpen) {
          hidePreview();
          preview = module.showPreview(root, m, {
            side,
            color,
            theme,
            dismiss: labelsFor(locale ?? lang).dismiss,
            open: () => setOpen(true),
            close: hidePreview,
          });
          if (settings.titleCue) {
            document.title = `(1) ${pageTitle}`;
          }
        }
      })
      .catch(() => {});
  }
  // Escape closes the chat from the launcher too, not only from inside the frame.
  launcher.button.addEventListener("keydown", (e) => e.key === "Escape" && setOpen(false));
  for (const intent of ["pointerenter", "focus", "touchstart"]) {
    launcher.button.addEventListener(intent, () => preload(), { passive: true });
  }

  w.$parley = {
    open: () => setOpen(true),
    close: () => setOpen(false),
    toggle: () => setOpen(!isOpen),
    setUser: (identifier: string | number, attributes = {}) =>
      send({ type: "set-user", payload: { identifier: String(identifier), attributes } }),
    setCustomAttributes: (attributes: Record<string, unknown>) =>
      send({ type: "set-custom-attributes", payload: { attributes } }),
    setLocale(code: string) {
      locale = code;
      launcher.setLabels(labelsFor(code));
      send({ type: "set-locale", payload: { locale: code } });
    },
    reset() {
      launcher.setUnread(0);
      stored = {};
      save();
      if (frame) {
        send({ type: "reset", payload: {} });
      }
    },
    on(name: SdkEvent, fn: Listener) {
      listeners[name] ??= new Set();
      listeners[name].add(fn);
      if (name === "ready" && mounted) {
        // Late subscribers still hear about a loader that is already up.
        queueMicrotask(fn as () => void);
      }
    },
    off: (name: SdkEvent, fn: Listener) => listeners[name]?.delete(fn),
  };

  // Painted (styled, laid out) in the frame after this idle period. The storage read, and what
  // depends on it, waits for another one.
  document.body.appendChild(host);
  idle(() => {
    color = read().c ?? color;
    launcher.setColor(color);
    mounted = true;
    emit("ready");
    if (read().a) {
      // A conversation is going on: bring the chat up (hidden) when the page is idle.
      idle(load);
    }
    dispatchEvent(new CustomEvent("parley:ready"));
  });
}

const settings = w.parleySettings ?? {};
const inbox = settings.inbox ?? script?.dataset.inbox;
// Nothing runs while the host page loads: the launcher is built once the page has loaded and
// its main thread is idle (at most 2 s later), so the widget never competes with the page's
// own first paint or input (issue 24: no host long task under 4× CPU throttling). No `load`
// listener: the page's load task stays the page's own; an idle period before the load looks
// again 0.1 s later (not in every idle period of a page waiting for a slow image).
// Loaded twice (two tags, a SPA re-inserting it): the first one stays in charge.
const boot = (): unknown =>
  idle(() =>
    document.readyState !== "complete"
      ? setTimeout(boot, 100)
      : w.$parley || start(settings, inbox as string),
  );
if (inbox) {
  boot();
} else {
  console.warn("Parley: no data-inbox");
}

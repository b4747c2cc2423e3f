import {
  type AppEvent,
  type HostCommand,
  type HostMessage,
  storageKey,
} from "../shared/bridge-protocol";
import { textOn } from "../shared/contrast";
import { createBridge } from "./bridge";
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
  const base = (settings.baseUrl ?? new URL(".", script?.src ?? location.href).href).replace(
    /\/+$/,
    "",
  );
  const origin = new URL(base).origin;
  const side = settings.position === "left" ? "left" : "right";
  // An explicit locale wins in the app over the inbox's; the page's language comes after both.
  let locale = settings.locale;
  const lang = document.documentElement.lang || navigator.language;
  const key = storageKey(inbox);
  let stored: Stored = {};
  try {
    stored = JSON.parse(localStorage.getItem(key) ?? "{}");
  } catch {}
  const save = () => {
    try {
      localStorage.setItem(key, JSON.stringify(stored));
    } catch {}
  };

  const host = el("parley-widget" as "div", "all:initial");
  const root = host.attachShadow({ mode: "open" });
  const launcher = createLauncher(root, side);
  // The inbox's colour from the first paint: as the chat last reported it, else as the site
  // configured it or the embed snippet carries it (data-color), else Chatwoot's default.
  let color = stored.c ?? settings.color ?? script?.dataset.color ?? "#1f93ff";
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
  const bridge = createBridge(() => frame?.iframe.contentWindow, origin, onEvent);
  const send = (command: HostCommand) => (ready ? bridge.post(command) : queue.push(command));
  const postState = () =>
    bridge.post({ type: "state", payload: { open: isOpen, url: location.href } });

  function load() {
    if (frame) {
      return;
    }
    const params = new URLSearchParams({ inbox, origin: location.origin, lang });
    if (locale) {
      params.set("locale", locale);
    }
    if (theme) {
      params.set("theme", theme);
    }
    frame = createFrame(root, `${base}/frame#${params}`, labelsFor(locale ?? lang).title, side);
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
      bridge.post({ type: "init", payload: { stored: stored.s ?? {} } });
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
      stored.c = color = event.payload.color;
      stored.a = event.payload.active;
      save();
      launcher.setColor(color);
    } else if (event.type === "store") {
      stored.s = { ...stored.s, [event.payload.name]: event.payload.value };
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
          f.iframe.focus();
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
    preview?.remove();
    preview = undefined;
    document.title = pageTitle;
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

  const mount = () => {
    document.body.appendChild(host);
    mounted = true;
    emit("ready");
    if (stored.a) {
      // A conversation is going on: bring the chat up (hidden) when the page is idle.
      idle(load);
    }
    dispatchEvent(new CustomEvent("parley:ready"));
  };
  // Inserted (styled, laid out, painted) in an idle period of its own, apart from the storage
  // read and the building above.
  idle(mount);
}

const settings = w.parleySettings ?? {};
const inbox = settings.inbox ?? script?.dataset.inbox;
// Nothing runs while the host page loads: the launcher is built once the page has loaded and
// its main thread is idle (at most 2 s later), so the widget never competes with the page's
// own first paint or input (issue 24: no host long task under 4× CPU throttling).
// Loaded twice (two tags, a SPA re-inserting it): the first one stays in charge.
const boot = () => idle(() => w.$parley || start(settings, inbox as string));
if (!inbox) {
  console.warn("Parley: no data-inbox");
} else if (document.readyState === "complete") {
  boot();
} else {
  addEventListener("load", boot);
}

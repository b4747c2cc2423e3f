import type { VNode } from "preact";
import type { HostCommand } from "../shared/bridge-protocol";
import { brandColor } from "../shared/contrast";
import { PANEL_WIDTH } from "../shared/layout";
import { App } from "./App";
import { listenToHost, notifyHost, requestClose } from "./bridge";
import { configure, embedded } from "./config";
import { setLocale } from "./i18n";
import { adoptHostStorage } from "./lib/storage";
import { mount } from "./mount";
import { resetChat, setCustomAttributes, setOpen, setUser, startChat } from "./state/chat";
import { resolved } from "./state/conversation";
import { flush } from "./state/outbox";
import { markSeen } from "./state/receive";
import { session } from "./state/session";
import { effect } from "./state/signal";
import { helpHome, isOpen, online, settings, unread } from "./state/ui";
import css from "./styles/app.css?inline";
import { installStyles } from "./styles/install";

configure(location.hash, navigator.language);
installStyles(css);

let initialized: () => void;
const init = new Promise<void>((resolve) => {
  initialized = resolve;
});
// Embedded, the stored session comes from the host page first; on its own, from this origin.
const started = (embedded() ? init : Promise.resolve()).then(startChat);

function handle(command: HostCommand) {
  if (command.type === "init") {
    adoptHostStorage(command.payload.stored);
    initialized();
    return;
  }
  if (command.type === "state") {
    setOpen(command.payload.open, command.payload.url);
    return;
  }
  // Identity and locale changes wait for the stored session to be loaded first.
  void started
    .then(() => {
      switch (command.type) {
        case "set-user":
          return setUser(command.payload.identifier, command.payload.attributes);
        case "set-custom-attributes":
          return setCustomAttributes(command.payload.attributes);
        case "set-locale":
          return setLocale(command.payload.locale);
        case "reset":
          return resetChat();
      }
    })
    .catch(() => {
      // A refused identity (bad identifier_hash) leaves the visitor anonymous.
    });
}

listenToHost(handle);
addEventListener("online", () => {
  online.value = true;
  void flush();
});
addEventListener("offline", () => {
  online.value = false;
});
document.addEventListener("visibilitychange", () => {
  // Replies that came while the tab was hidden count as unread until the visitor is back.
  if (!document.hidden && isOpen.value) {
    unread.value = 0;
    markSeen();
  }
});
addEventListener("keydown", (e) => {
  if (e.key === "Escape" && embedded()) {
    requestClose();
  }
  // Full screen on a phone (the frame not the desktop panel) the chat is a modal: Tab cycles
  // through its controls and never reaches the page hidden behind it.
  if (e.key === "Tab" && embedded() && innerWidth !== PANEL_WIDTH) {
    const all = document.querySelectorAll<HTMLElement>(
      "a[href],button:not(:disabled),textarea,input:not([tabindex='-1'])",
    );
    const [first, last] = [all[0], all[all.length - 1]];
    const edge = e.shiftKey ? first : last;
    if (document.activeElement === edge) {
      e.preventDefault();
      (e.shiftKey ? last : first)?.focus();
    }
  }
});

effect(() => {
  notifyHost({ type: "unread", payload: { count: unread.value } });
});
effect(() => {
  const color = settings.value?.widget_color;
  if (color) {
    const active = Boolean(session.value?.conversationId) && !resolved.value;
    notifyHost({ type: "session", payload: { active, color: brandColor(color) } });
  }
});

/**
 * `fn` in a task of its own. On a help center the chat's frame has the page's origin and runs on
 * the page's main thread: the chat's startup goes in steps that each stay short there (issue 24).
 */
const nextTask = (fn: () => void) => setTimeout(fn);

effect(() => {
  // Inboxes without a portal never fetch the help center's chunk.
  if (settings.value?.portal) {
    import("./help/Home")
      // The chunk is evaluated in the task that loaded it; the home renders in the next one.
      .then((m) =>
        nextTask(() => {
          helpHome.value = m.Home;
        }),
      )
      // A chunk that cannot load leaves the plain chat.
      .catch(() => {
        helpHome.value = (p) => p.children as VNode;
      });
  }
});

if (!embedded()) {
  setOpen(true);
}
// The host hears "ready" (and sends the stored session) while the first render waits a task:
// evaluating the bundle and rendering it are two shorter tasks instead of one.
notifyHost({ type: "ready", payload: {} });
nextTask(() => mount(() => <App />, document.getElementById("app") as HTMLElement));

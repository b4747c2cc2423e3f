import { textOn } from "../shared/contrast";
import { el, FIXED, icon } from "./dom";

const CHAT = "M21 12a8 8 0 0 1-11.6 7.1L4 20.5l1.4-4.9A8 8 0 1 1 21 12z";
const CLOSE = "M6 6l12 12M18 6 6 18";

export type Launcher = {
  button: HTMLButtonElement;
  setOpen(open: boolean, hide: boolean): void;
  setUnread(count: number): void;
  setColor(color: string): void;
  setLabels(labels: LauncherLabels): void;
};

export type LauncherLabels = { open: string; close: string; unread: string };

/**
 * The bubble: a real button, labelled, with an unread badge. Built in the host page's idle
 * time, so as little as its first paint needs: one icon whose path turns into the close
 * cross, and the badge only once the chat reports a count (issue 24: host main-thread work).
 */
export function createLauncher(root: ShadowRoot, side: "left" | "right"): Launcher {
  const button = el(
    "button",
    `${FIXED}bottom:20px;${side}:20px;width:56px;height:56px;padding:0;border:0;border-radius:50%;cursor:pointer;display:grid;place-items:center;box-shadow:0 4px 16px #0004`,
    root,
  );
  button.type = "button";
  const path = button.appendChild(icon(CHAT)).firstChild as SVGPathElement;
  let badge: HTMLElement | undefined;

  let open = false;
  let unread = 0;
  let labels: LauncherLabels;
  const update = () => {
    path.setAttribute("d", open ? CLOSE : CHAT);
    button.setAttribute("aria-expanded", `${open}`);
    button.setAttribute(
      "aria-label",
      open ? labels.close : unread ? `${labels.open} (${unread} ${labels.unread})` : labels.open,
    );
  };

  return {
    button,
    setOpen(value, hide) {
      open = value;
      button.style.display = hide ? "none" : "grid";
      update();
    },
    setUnread(count) {
      unread = count;
      badge ??= el(
        "span",
        "position:absolute;top:-4px;right:-4px;min-width:10px;height:20px;padding:0 5px;border-radius:10px;background:#c5162e;color:#fff;font:600 12px/20px system-ui;text-align:center",
        button,
      );
      badge.textContent = count > 9 ? "9+" : `${count}`;
      badge.hidden = !count;
      update();
    },
    setColor(color) {
      // The brand colour as it is, its icon in the text colour that reads on it.
      button.style.background = color;
      button.style.color = textOn(color);
    },
    setLabels(next) {
      labels = next;
      update();
    },
  };
}

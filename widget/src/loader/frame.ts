import { PANEL_WIDTH } from "../shared/layout";
import { el, FIXED } from "./dom";

/** `show` answers whether the open chat covers the whole screen (a phone). */
export type Frame = { iframe: HTMLIFrameElement; show(open: boolean): boolean };

/** Below this width the chat takes the whole screen. */
const MOBILE = "(max-width: 520px)";

/** The chat's iframe: a panel above the launcher, the whole screen on small screens. */
export function createFrame(
  root: ShadowRoot,
  src: string,
  title: string,
  side: "left" | "right",
  sandboxed: boolean,
): Frame {
  // Complete before it is inserted: an iframe inserted without its src first commits an
  // about:blank document of its own on the host's main thread, then navigates again.
  const iframe = el("iframe", "");
  iframe.title = title;
  if (sandboxed) {
    // An opaque origin: Chromium runs the chat in a process of its own (issue 24). Forms for
    // its submit events, popups (not sandboxed) for its links, nothing else.
    iframe.sandbox = "allow-scripts allow-forms allow-popups allow-popups-to-escape-sandbox";
  }
  iframe.src = src;
  const media = matchMedia(MOBILE);
  let open = false;
  const layout = () => {
    iframe.style.cssText =
      `${FIXED}border:0;background:#fff;color-scheme:light;box-shadow:0 8px 40px #0003;` +
      `display:${open ? "block" : "none"};` +
      (media.matches
        ? "inset:0;width:100%;height:100%"
        : `bottom:92px;${side}:20px;width:${PANEL_WIDTH}px;height:min(680px,calc(100% - 112px));border-radius:16px`);
  };
  media.addEventListener("change", layout);
  layout();
  root.appendChild(iframe);
  return {
    iframe,
    show(value) {
      open = value;
      layout();
      return open && media.matches;
    },
  };
}

import { el, FIXED } from "./dom";

export type Frame = { iframe: HTMLIFrameElement; show(open: boolean): void; isMobile(): boolean };

/** Below this width the chat takes the whole screen. */
const MOBILE = "(max-width: 520px)";

/** The chat's iframe: a panel above the launcher, the whole screen on small screens. */
export function createFrame(
  root: ShadowRoot,
  src: string,
  title: string,
  side: "left" | "right",
): Frame {
  const iframe = el(
    "iframe",
    `${FIXED}border:0;background:#fff;color-scheme:light;box-shadow:0 8px 40px #0003`,
    root,
  );
  iframe.title = title;
  iframe.src = src;
  const media = matchMedia(MOBILE);
  let open = false;
  const layout = () => {
    const s = iframe.style;
    const mobile = media.matches;
    const edge = mobile ? "0" : "20px";
    s.display = open ? "block" : "none";
    s.top = mobile ? "0" : "auto";
    s.bottom = mobile ? "0" : "92px";
    s.left = mobile || side === "left" ? edge : "auto";
    s.right = mobile || side === "right" ? edge : "auto";
    s.width = mobile ? "100%" : "380px";
    s.height = mobile ? "100%" : "min(680px,calc(100% - 112px))";
    s.borderRadius = mobile ? "0" : "16px";
  };
  media.addEventListener?.("change", layout);
  layout();
  return {
    iframe,
    show(value) {
      open = value;
      layout();
    },
    isMobile: () => media.matches,
  };
}

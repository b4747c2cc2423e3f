// The closed chat's reply preview, a module of its own (widget-preview.js) that the loader
// imports the first time a reply comes while the chat is closed: the loader stays within its
// 3 KB, and a page whose visitor never gets a reply while the chat is closed never loads it.
import type { HostMessage } from "../shared/bridge-protocol";
import { textOn } from "../shared/contrast";
import { el, FIXED } from "./dom";

export type PreviewOptions = {
  side: "left" | "right";
  /** The inbox colour (#rrggbb), for the sender's face. */
  color: string;
  /** The site's choice ("light" or "dark"); by default the visitor's system decides. */
  theme?: string;
  /** The × button's label in the chat's language. */
  dismiss: string;
  open(): void;
  close(): void;
};

/** At most this many characters, cut at a word boundary (the clamp then shows two lines). */
const MAX = 160;

export function clip(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= MAX) {
    return flat;
  }
  const cut = flat.slice(0, MAX);
  const space = cut.lastIndexOf(" ");
  return `${space > MAX / 2 ? cut.slice(0, space) : cut}…`;
}

export const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]?.toUpperCase())
    .join("") || "?";

/**
 * A card beside the launcher: the sender's face and name, then the reply on two lines at most
 * (clamped at a word, with an ellipsis); the × sits above the card, never over its text. Light
 * or dark as the chat is. Returns the element holding both, for the loader to remove.
 */
export function showPreview(root: ShadowRoot, m: HostMessage, o: PreviewOptions): HTMLElement {
  const dark = o.theme ? o.theme === "dark" : matchMedia("(prefers-color-scheme:dark)").matches;
  const [bg, fg, muted] = dark ? ["#262b33", "#e7e9ec", "#a3abb6"] : ["#fff", "#1d232b", "#5f6773"];
  const paint = `border:0;background:${bg};color:${fg};font:inherit;cursor:pointer;box-shadow:0 4px 16px #0004;`;
  const box = el(
    "div",
    `${FIXED}bottom:88px;${o.side}:20px;width:272px;font:14px/1.4 system-ui,sans-serif`,
    root,
  );
  box.dataset.parleyPreview = "";
  const close = el(
    "button",
    `${paint}position:absolute;top:-36px;${o.side}:0;width:28px;height:28px;padding:0;border-radius:50%;font-size:18px;line-height:28px`,
    box,
  );
  close.type = "button";
  close.textContent = "×";
  close.setAttribute("aria-label", o.dismiss);
  close.onclick = o.close;
  const open = el(
    "button",
    `${paint}display:flex;gap:10px;align-items:flex-start;width:100%;padding:12px 14px;border-radius:14px;text-align:start`,
    box,
  );
  open.type = "button";
  open.onclick = o.open;
  const name = m.sender?.name ?? "";
  const face = el(
    "span",
    `flex:none;display:flex;align-items:center;justify-content:center;width:32px;height:32px;border-radius:50%;font-size:12px;font-weight:600;background:${o.color};color:${textOn(o.color)}`,
    open,
  );
  face.setAttribute("aria-hidden", "true");
  face.textContent = initials(name);
  const text = el("span", "display:block;min-width:0", open);
  if (name) {
    const who = el("span", `display:block;font-size:12px;font-weight:600;color:${muted}`, text);
    who.textContent = name;
  }
  el(
    "span",
    "display:-webkit-box;-webkit-box-orient:vertical;-webkit-line-clamp:2;overflow:hidden;overflow-wrap:break-word",
    text,
  ).textContent = clip(m.content ?? "");
  return box;
}

/**
 * Styles are set through the CSSOM (`style.cssText`, `style.x`), never as a style attribute or
 * a <style> element: a host page's strict CSP (no 'unsafe-inline') allows them.
 */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  css: string,
  parent?: Node,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.style.cssText = css;
  parent?.appendChild(node);
  return node;
}

const NS = "http://www.w3.org/2000/svg";

/** A 24×24 stroked icon; built with DOM calls so Trusted Types hosts accept it too. */
export function icon(d: string): SVGSVGElement {
  const svg = document.createElementNS(NS, "svg");
  const path = document.createElementNS(NS, "path");
  const attributes = {
    viewBox: "0 0 24 24",
    width: 26,
    height: 26,
    fill: "none",
    stroke: "currentColor",
    "stroke-width": 2,
    "stroke-linecap": "round",
    "aria-hidden": true,
  };
  for (const [k, v] of Object.entries(attributes)) {
    svg.setAttribute(k, v as string);
  }
  path.setAttribute("d", d);
  svg.appendChild(path);
  return svg;
}

export const FIXED = "position:fixed;z-index:2147483000;";

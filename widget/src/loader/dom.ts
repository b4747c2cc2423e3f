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

/**
 * A 24×24 stroked icon; built with DOM calls so Trusted Types hosts accept it too. Its size and
 * stroke are CSS (one style, not six attributes: fewer calls in the launcher's task). No
 * aria-hidden: a button's content is presentational, its name is its aria-label.
 */
export function icon(d: string): SVGSVGElement {
  const svg = document.createElementNS(NS, "svg");
  const path = document.createElementNS(NS, "path");
  svg.style.cssText =
    "width:26px;height:26px;fill:none;stroke:currentColor;stroke-width:2;stroke-linecap:round";
  svg.setAttribute("viewBox", "0 0 24 24");
  path.setAttribute("d", d);
  svg.appendChild(path);
  return svg;
}

export const FIXED = "position:fixed;z-index:2147483000;";

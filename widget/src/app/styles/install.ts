/**
 * Installs the app's CSS as a constructed stylesheet: no <style> or style attribute, so the
 * frame's own CSP can forbid inline styles. Old engines without constructable sheets get a
 * <style> element instead.
 */
export function installStyles(css: string, doc: Document = document) {
  if ("adoptedStyleSheets" in doc && "replaceSync" in CSSStyleSheet.prototype) {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    doc.adoptedStyleSheets = [...doc.adoptedStyleSheets, sheet];
  } else {
    const style = doc.createElement("style");
    style.textContent = css;
    doc.head.appendChild(style);
  }
}

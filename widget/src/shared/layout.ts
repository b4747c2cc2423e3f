/**
 * The open chat's panel width on a wide screen (the loader's iframe). Narrower screens get the
 * whole screen, so the chat knows it covers the page when its width is anything else: it reads
 * this, not `screen.width`, which a cross-process frame (another site's page, or Parley's own
 * pages, where the frame is sandboxed) cannot be relied on to share with the page.
 */
export const PANEL_WIDTH = 380;

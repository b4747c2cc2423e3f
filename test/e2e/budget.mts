// The widget's size budgets, measured on the production build in widget/dist.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

export const DIST = path.resolve(import.meta.dirname, "../../widget/dist");
export const LOADER_BUDGET = 3 * 1024;
export const OPEN_CHAT_BUDGET = 20 * 1024;
export const OPEN_CHAT_REQUESTS = 3;

/** Gzip (level 9) size of a file of the build, by its URL path ("/widget.js"). */
export function gzipped(urlPath: string): number {
  const file = path.join(DIST, decodeURIComponent(urlPath));
  if (!existsSync(file)) {
    throw new Error(`${file} is missing: run npm run build:widget`);
  }
  return gzipSync(readFileSync(file), { level: 9 }).length;
}

/** What a visitor downloads up to an open chat: the loader, the frame, what the frame loads. */
export function openChatFiles(): string[] {
  const html = readFileSync(path.join(DIST, "frame.html"), "utf8");
  const loaded = [...html.matchAll(/<(?:script|link)\b[^>]*?(?:src|href)="([^"]+)"/g)].map(
    (m) => `/${path.posix.normalize(m[1] as string).replace(/^(\.\/)+/, "")}`,
  );
  return ["/widget.js", "/frame.html", ...loaded];
}

// Budgets of the production build (npm test builds the widget first); the browser test checks
// the same budgets against what Chromium really fetches.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  DIST,
  gzipped,
  LOADER_BUDGET,
  OPEN_CHAT_BUDGET,
  OPEN_CHAT_REQUESTS,
  openChatFiles,
} from "./budget.mts";

describe("widget budgets", () => {
  it(`keeps the loader within ${LOADER_BUDGET} bytes gzipped (level 9)`, () => {
    expect(gzipped("/widget.js")).toBeLessThanOrEqual(LOADER_BUDGET);
  });

  it(`loads an open chat in at most ${OPEN_CHAT_REQUESTS} requests and ${OPEN_CHAT_BUDGET} bytes`, () => {
    const files = openChatFiles();
    expect(files).toHaveLength(OPEN_CHAT_REQUESTS);
    const total = files.reduce((sum, f) => sum + gzipped(f), 0);
    expect(total).toBeLessThanOrEqual(OPEN_CHAT_BUDGET);
  });

  it("ships a framework-free loader that declares no globals of its own", () => {
    const loader = readFileSync(path.join(DIST, "widget.js"), "utf8");
    expect(loader.startsWith("(function(){")).toBe(true);
    expect(loader).not.toMatch(/preact|__k|createElement\("div",\{/);
  });

  it("keeps inline script and style out of the frame document", () => {
    const html = readFileSync(path.join(DIST, "frame.html"), "utf8");
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/<style|style="/);
  });
});

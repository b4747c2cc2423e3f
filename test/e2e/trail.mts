// What a widget page did, for the report of a test that failed: a rare failure under load is
// only understood from what the chat sent, heard and logged, not from "timed out waiting".
import type { Page } from "playwright-core";

const MAX_LINES = 600;
const CLIP = 300;
/** Trails printed for one failed test: the pages it opened last, and any still open. */
const MAX_PAGES = 3;

type Watched = { page: Page; lines: string[]; closed: boolean };
/** Every page of this test file whose trail is kept, in the order they were opened. */
const watched: Watched[] = [];

/**
 * Records the page's (and its frames') console, API requests, socket frames, and where keys,
 * input and focus land in each document, timestamped.
 */
export async function watchTrail(page: Page): Promise<void> {
  const entry: Watched = { page, lines: [], closed: false };
  watched.push(entry);
  page.on("close", () => {
    entry.closed = true;
  });
  await page.addInitScript(() => {
    for (const type of ["keydown", "input", "focusin"]) {
      addEventListener(
        type,
        (e) => {
          const target = e.target as HTMLElement | null;
          console.debug(
            `[trail] ${type} ${(e as KeyboardEvent).key ?? ""} on ${target?.id || target?.tagName} in ${location.pathname}`,
          );
        },
        true,
      );
    }
  });
  const lines = entry.lines;
  const start = Date.now();
  const add = (line: string) => {
    lines.push(`+${Date.now() - start}ms ${line.slice(0, CLIP)}`);
    if (lines.length > MAX_LINES) {
      lines.splice(0, lines.length - MAX_LINES);
    }
  };
  const short = (url: string) => url.replace(/^https?:\/\/[^/]+/, "");
  page.on("console", (m) => add(`console.${m.type()} [${short(m.location().url)}] ${m.text()}`));
  page.on("pageerror", (e) => add(`pageerror ${e.message}`));
  page.on("request", (r) => add(`→ ${r.method()} ${short(r.url())}`));
  page.on("requestfinished", async (r) => {
    const res = await r.response().catch(() => null);
    add(`← ${res?.status() ?? "?"} ${r.method()} ${short(r.url())}`);
  });
  page.on("requestfailed", (r) =>
    add(`✗ ${r.method()} ${short(r.url())} ${r.failure()?.errorText}`),
  );
  page.on("framenavigated", (f) =>
    add(`frame ${f === page.mainFrame() ? "main" : "sub"} → ${short(f.url())}`),
  );
  page.on("websocket", (ws) => {
    const name = short(ws.url()).split("?")[0];
    add(`ws open ${name}`);
    ws.on("framesent", (f) => add(`ws ↑ ${String(f.payload)}`));
    ws.on("framereceived", (f) => add(`ws ↓ ${String(f.payload)}`));
    ws.on("socketerror", (e) => add(`ws error ${e}`));
    ws.on("close", () => add(`ws closed ${name}`));
  });
}

/** The host's stored widget data and the chat's screen, as text. */
async function widgetState(page: Page): Promise<string> {
  const host = await page
    .evaluate(() =>
      JSON.stringify({
        focused: document.hasFocus(),
        active: document.activeElement?.tagName,
        inWidget: document.querySelector("parley-widget")?.shadowRoot?.activeElement?.tagName,
        storage: Object.entries(localStorage),
      }),
    )
    .catch((e: Error) => `host unreadable: ${e.message}`);
  const frame = page.frames().find((f) => f.url().includes("/frame"));
  const screen = frame
    ? await frame
        .evaluate(() =>
          JSON.stringify({
            active: document.activeElement?.id || document.activeElement?.tagName,
            focused: document.hasFocus(),
            typed: (document.getElementById("pw-input") as HTMLTextAreaElement | null)?.value,
            messages: Array.from(document.querySelectorAll(".pw-msg"), (m) => m.textContent),
            notices: Array.from(
              document.querySelectorAll("[role=status],[role=alert]"),
              (n) => n.textContent,
            ),
            online: navigator.onLine,
          }),
        )
        .catch((e: Error) => `frame unreadable: ${e.message}`)
    : "no chat frame";
  return `host: ${host.slice(0, 2000)}\nchat: ${screen.slice(0, 2000)}`;
}

/**
 * When the test fails, prints the trail and the widget's state of the pages it opened (the last
 * few) and of those still open from before it. Register in beforeEach.
 */
export function explainFailure(context: {
  onTestFailed(fn: () => Promise<void>): void;
  task: { name: string };
}) {
  const first = watched.length;
  context.onTestFailed(async () => {
    const opened = watched.slice(first).slice(-MAX_PAGES);
    const earlier = watched.slice(0, first).filter((w) => !w.closed);
    const pages = [...earlier, ...opened];
    for (const [n, w] of pages.entries()) {
      const state = w.closed ? "page closed" : await widgetState(w.page);
      console.log(
        `--- widget trail ${n + 1}/${pages.length} of "${context.task.name}" ---\n${state}\n${w.lines.join("\n")}\n---`,
      );
    }
  });
}

// Issue 24: whose are the host page's long tasks? A page's `longtask` entries say how long a task
// took, not what ran in it, and on the loaded 2-core development VM the same page without the
// widget has long tasks of its own under 4× throttling. So the widget bench also traces each page
// view (Chromium's trace of the renderer's main thread) and sorts the host page's tasks by owner.

/** Trace categories: the scheduler's tasks, what ran in them, frames, and performance.mark(). */
export const TRACE_CATEGORIES = [
  "toplevel",
  "devtools.timeline",
  "disabled-by-default-devtools.timeline",
  "blink.user_timing",
];

/** The mark the bench sets just before it clicks the launcher. */
export const CLICK_MARK = "bench:click";

const TASK = new Set(["ThreadControllerImpl::RunTask", "RunTask"]);

/**
 * The tasks of the host page's main thread (the renderer of its main frame), in order, each with
 * its wall time, its thread (CPU) time and its owner:
 * - "widget": it ran the widget's code (the loader, the preview, the chat's scripts: any event of
 *   the task names one of `widgetUrls`) or worked for the chat's frame when that frame shares the
 *   page's process (a chat on the page's own origin: its document, scripts and layout);
 * - "harness": the DevTools protocol's own work (Playwright's injected scripts and evaluations);
 * - "page": everything else (navigation, the page's parsing, layout and paint).
 * `sameProcess` tells whether the chat's frame ran on the page's main thread at all.
 */
export function hostTasks(trace, { hostUrl, widgetUrls }) {
  const events = trace.traceEvents ?? trace;
  const commits = events
    .filter((e) => e.name === "FrameCommittedInBrowser")
    .map((e) => e.args.data);
  const main = commits.filter((d) => !d.parent && d.url.startsWith(hostUrl)).at(-1);
  if (!main) {
    throw new Error(`no main frame committed for ${hostUrl} in the trace`);
  }
  const pid = main.processId;
  const tid = events.find(
    (e) =>
      e.ph === "M" && e.name === "thread_name" && e.pid === pid && e.args.name === "CrRendererMain",
  )?.tid;
  const chats = commits.filter((d) => d.parent && d.url.includes("/frame"));
  const chatFrames = new Set(chats.filter((d) => d.processId === pid).map((d) => d.frame));
  const clickAt = events.find((e) => e.name === CLICK_MARK && e.pid === pid)?.ts ?? Infinity;
  const own = events
    .filter((e) => e.pid === pid && e.tid === tid && e.ph === "X")
    .sort((a, b) => a.ts - b.ts);
  const isWidgetUrl = (url) => typeof url === "string" && widgetUrls.some((u) => url.startsWith(u));

  const tasks = [];
  let current;
  for (const e of own) {
    if (TASK.has(e.name) && (!current || e.ts >= current.end)) {
      current = {
        start: e.ts,
        end: e.ts + e.dur,
        wall: e.dur / 1000,
        cpu: (e.tdur ?? e.dur) / 1000,
        beforeClick: e.ts < clickAt,
        owner: "page",
      };
      tasks.push(current);
      continue;
    }
    if (!current || e.ts >= current.end || current.owner === "widget") {
      continue;
    }
    const data = e.args?.data ?? e.args?.beginData ?? {};
    const urls = [data.url, ...(data.stackTrace ?? []).map((frame) => frame.url)];
    if (urls.some(isWidgetUrl) || (data.frame && chatFrames.has(data.frame))) {
      current.owner = "widget";
    } else if (
      e.args?.chrome_mojo_event_info?.mojo_interface_tag === "blink.mojom.DevToolsSession"
    ) {
      current.owner = "harness";
    }
  }
  return { tasks, sameProcess: chatFrames.size > 0, chatLoaded: chats.length > 0 };
}

/** What one traced page view says: its long tasks by owner and the widget's CPU time. */
export function summarize({ tasks }) {
  const widget = tasks.filter((t) => t.owner === "widget");
  const long = tasks.filter((t) => t.wall > 50);
  const sum = (list) => list.reduce((n, t) => n + t.cpu, 0);
  return {
    long: Object.fromEntries(
      ["widget", "page", "harness"].map((owner) => [
        owner,
        long.filter((t) => t.owner === owner).map((t) => t.wall),
      ]),
    ),
    widgetCpuBeforeClick: sum(widget.filter((t) => t.beforeClick)),
    widgetCpu: sum(widget),
    // Wall time: what the page's main thread was busy with for the widget, waits included (the
    // host storage's synchronous read waits for the browser process).
    widgetWallBeforeClick: widget.filter((t) => t.beforeClick).reduce((n, t) => n + t.wall, 0),
    widgetWall: widget.reduce((n, t) => n + t.wall, 0),
    widgetLongestCpu: Math.max(0, ...widget.map((t) => t.cpu)),
    widgetLongestWall: Math.max(0, ...widget.map((t) => t.wall)),
  };
}

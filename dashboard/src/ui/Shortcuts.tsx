import { signal } from "../lib/signal";
import { filter, rows, setFilter } from "../state/list";
import { conversationPath, go, route } from "../state/route";
import { act, conversation } from "../state/thread";

export const helpOpen = signal(false);

export const SHORTCUTS: [string, string][] = [
  ["j / k", "Next / previous conversation"],
  ["r", "Reply"],
  ["n", "Private note"],
  ["e", "Resolve (or reopen)"],
  ["/", "Search messages"],
  ["1 / 2 / 3", "Mine / Unassigned / All"],
  ["?", "This list"],
  ["Esc", "Close this list, leave a field"],
];

const typingInField = (t: EventTarget | null) =>
  t instanceof HTMLElement && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName));

function step(by: number) {
  const r = route.peek();
  if (r.name !== "inbox") {
    return;
  }
  const ids = rows();
  const at = r.conversationId === null ? -1 : ids.indexOf(r.conversationId);
  const next = ids[Math.min(ids.length - 1, Math.max(0, at + by))];
  if (next !== undefined) {
    go(conversationPath(r.accountId, next));
    document.querySelector(`[data-id="${next}"]`)?.scrollIntoView({ block: "nearest" });
  }
}

function focus(selector: string) {
  (document.querySelector(selector) as HTMLElement | null)?.click();
  (document.getElementById("composer") as HTMLTextAreaElement | null)?.focus();
}

export function onKey(e: KeyboardEvent) {
  if (e.key === "Escape") {
    if (helpOpen.peek()) {
      helpOpen.value = false;
    } else if (typingInField(e.target)) {
      (e.target as HTMLElement).blur();
    }
    return;
  }
  if (e.metaKey || e.ctrlKey || e.altKey || typingInField(e.target)) {
    return;
  }
  const c = conversation.peek();
  const actions: Record<string, () => void> = {
    j: () => step(1),
    k: () => step(-1),
    r: () => focus("#mode-reply"),
    n: () => focus("#mode-note"),
    e: () => {
      if (c) {
        void act("/toggle_status", { status: c.status === "resolved" ? "open" : "resolved" });
      }
    },
    "/": () => document.getElementById("search")?.focus(),
    "?": () => {
      helpOpen.value = !helpOpen.peek();
    },
    "1": () => setFilter({ assignee: "me" }),
    "2": () => setFilter({ assignee: "unassigned" }),
    "3": () => setFilter({ assignee: "all" }),
  };
  const run = actions[e.key];
  if (
    run &&
    !(
      e.key.match(/[123]/) &&
      filter.peek().assignee === { "1": "me", "2": "unassigned", "3": "all" }[e.key]
    )
  ) {
    e.preventDefault();
    run();
  }
}

export function ShortcutHelp() {
  if (!helpOpen.value) {
    return null;
  }
  return (
    <div class="overlay" role="dialog" aria-modal="true" aria-labelledby="keys-title">
      <div class="card">
        <h2 id="keys-title">Keyboard shortcuts</h2>
        <dl class="keys">
          {SHORTCUTS.map(([k, what]) => (
            <>
              <dt>
                <kbd>{k}</kbd>
              </dt>
              <dd>{what}</dd>
            </>
          ))}
        </dl>
        <button type="button" onClick={() => (helpOpen.value = false)}>
          Close
        </button>
      </div>
    </div>
  );
}

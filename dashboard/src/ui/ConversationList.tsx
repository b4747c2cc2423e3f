import { useEffect, useRef, useState } from "preact/hooks";
import { ago, initials, previewOf } from "../lib/format";
import type { Conversation } from "../lib/types";
import { inboxes, inboxName, labels, teams } from "../state/account";
import {
  counts,
  feedState,
  filter,
  hasMore,
  loadError,
  loading,
  loadMore,
  row,
  rows,
  setFilter,
  version,
} from "../state/list";
import type { AssigneeTab, SortKey } from "../state/list-model";
import { conversationPath, go } from "../state/route";
import { prefetch } from "../state/thread";
import { useHeight } from "./useHeight";

/** Every row has this height, so 10,000 of them cost a few dozen elements (windowed). */
export const ROW_HEIGHT = 72;
const OVERSCAN = 8;

const TABS: [AssigneeTab, string, "mine_count" | "unassigned_count" | "all_count"][] = [
  ["me", "Mine", "mine_count"],
  ["unassigned", "Unassigned", "unassigned_count"],
  ["all", "All", "all_count"],
];

function Row({ c, active, accountId }: { c: Conversation; active: boolean; accountId: number }) {
  const unread = c.unread_count > 0;
  const name = c.meta.sender?.name || `Visitor #${c.meta.sender?.id ?? c.id}`;
  return (
    <a
      class={`row${active ? " active" : ""}${unread ? " unread" : ""}`}
      href={`/app${conversationPath(accountId, c.id)}`}
      aria-current={active ? "page" : undefined}
      data-id={c.id}
      onPointerDown={() => prefetch(accountId, c.id)}
      onClick={(e) => {
        if (!(e.metaKey || e.ctrlKey || e.shiftKey)) {
          e.preventDefault();
          go(conversationPath(accountId, c.id));
        }
      }}
    >
      <span class="avatar" aria-hidden="true">
        {initials(name)}
      </span>
      <span class="row-main">
        <span class="row-top">
          <span class="name">{name}</span>
          <time dateTime={new Date(c.last_activity_at * 1000).toISOString()}>
            {ago(c.last_activity_at)}
          </time>
        </span>
        <span class="row-bottom">
          <span class="preview">{previewOf(c)}</span>
          {unread && (
            <span class="badge" title="Unread messages">
              {c.unread_count}
              <span class="sr"> unread</span>
            </span>
          )}
        </span>
        <span class="row-meta">
          #{c.id} · {inboxName(c.inbox_id)}
          {c.priority ? ` · ${c.priority}` : ""}
          {c.meta.assignee ? ` · ${c.meta.assignee.name}` : ""}
        </span>
      </span>
    </a>
  );
}

function Filters() {
  const f = filter.value;
  const [q, setQ] = useState(f.q);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  return (
    <div class="filters">
      <input
        id="search"
        type="search"
        placeholder="Search messages (/)"
        aria-label="Search messages"
        value={q}
        onInput={(e) => {
          const v = (e.currentTarget as HTMLInputElement).value;
          setQ(v);
          clearTimeout(timer.current);
          timer.current = setTimeout(() => setFilter({ q: v }), 300);
        }}
      />
      <div class="filter-row">
        <select
          aria-label="Status"
          value={f.status}
          onChange={(e) =>
            setFilter({ status: (e.currentTarget as HTMLSelectElement).value as never })
          }
        >
          {["open", "pending", "snoozed", "resolved", "all"].map((s) => (
            <option value={s}>{s[0]?.toUpperCase() + s.slice(1)}</option>
          ))}
        </select>
        <select
          aria-label="Sort"
          value={f.sort}
          onChange={(e) =>
            setFilter({ sort: (e.currentTarget as HTMLSelectElement).value as SortKey })
          }
        >
          <option value="last_activity_at_desc">Latest</option>
          <option value="last_activity_at_asc">Oldest activity</option>
          <option value="created_at_desc">Newest</option>
          <option value="created_at_asc">Oldest</option>
          <option value="priority_desc">Priority</option>
        </select>
        <select
          aria-label="Inbox"
          value={f.inboxId ?? ""}
          onChange={(e) =>
            setFilter({ inboxId: Number((e.currentTarget as HTMLSelectElement).value) || null })
          }
        >
          <option value="">All inboxes</option>
          {inboxes.value.map((i) => (
            <option value={i.id}>{i.name}</option>
          ))}
        </select>
        {teams.value.length > 0 && (
          <select
            aria-label="Team"
            value={f.teamId ?? ""}
            onChange={(e) =>
              setFilter({ teamId: Number((e.currentTarget as HTMLSelectElement).value) || null })
            }
          >
            <option value="">All teams</option>
            {teams.value.map((t) => (
              <option value={t.id}>{t.name}</option>
            ))}
          </select>
        )}
        {labels.value.length > 0 && (
          <select
            aria-label="Label"
            value={f.label ?? ""}
            onChange={(e) =>
              setFilter({ label: (e.currentTarget as HTMLSelectElement).value || null })
            }
          >
            <option value="">All labels</option>
            {labels.value.map((l) => (
              <option value={l.title}>{l.title}</option>
            ))}
          </select>
        )}
      </div>
    </div>
  );
}

export function ConversationList({
  accountId,
  activeId,
}: {
  accountId: number;
  activeId: number | null;
}) {
  version.value; // re-render on every change of the rows
  const f = filter.value;
  const c = counts.value;
  const ids = rows();
  const scroller = useRef<HTMLDivElement>(null);
  const [top, setTop] = useState(0);
  const height = useHeight(scroller);
  const first = Math.max(0, Math.floor(top / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(ids.length, Math.ceil((top + height) / ROW_HEIGHT) + OVERSCAN);
  useEffect(() => {
    if (last >= ids.length - OVERSCAN && hasMore() && !loading.peek()) {
      void loadMore();
    }
  }, [last, ids.length]);
  return (
    <section class="list-pane" aria-label="Conversations">
      <div class="tabs" role="tablist" aria-label="Assignee">
        {TABS.map(([key, label, count]) => (
          <button
            type="button"
            role="tab"
            aria-selected={f.assignee === key}
            class={f.assignee === key ? "tab on" : "tab"}
            onClick={() => setFilter({ assignee: key })}
          >
            {label} <span class="count">{c ? c[count].toLocaleString() : "…"}</span>
          </button>
        ))}
      </div>
      <Filters />
      {feedState.value === "down" && (
        <p class="banner" role="status">
          Reconnecting… the list catches up when the connection is back.
        </p>
      )}
      {loadError.value && (
        <p class="error" role="alert">
          {loadError.value}
        </p>
      )}
      <div
        class="rows"
        ref={scroller}
        onScroll={(e) => setTop((e.currentTarget as HTMLDivElement).scrollTop)}
      >
        <div class="rows-inner" style={{ height: `${ids.length * ROW_HEIGHT}px` }}>
          <div class="rows-window" style={{ transform: `translateY(${first * ROW_HEIGHT}px)` }}>
            {ids.slice(first, last).map((id) => {
              const conv = row(id);
              return conv ? (
                <Row key={id} c={conv} active={id === activeId} accountId={accountId} />
              ) : null;
            })}
          </div>
        </div>
        {!loading.value && ids.length === 0 && !loadError.value && (
          <p class="empty">No conversations here.</p>
        )}
        {loading.value && <p class="empty">Loading…</p>}
      </div>
    </section>
  );
}

import { useState } from "preact/hooks";
import { ApiError } from "../lib/api";
import type { Conversation } from "../lib/types";
import { agents, labels, teams } from "../state/account";
import { act } from "../state/thread";

const errorText = (err: unknown) => (err instanceof ApiError ? err.message : "No connection");

/** Assign, team, priority, labels, status and mute: each one call of the account API. */
export function Actions({ c }: { c: Conversation }) {
  const [error, setError] = useState("");
  const [snoozing, setSnoozing] = useState(false);
  const run = (path: string, json: unknown = {}) => {
    setError("");
    act(path, json).catch((err) => setError(errorText(err)));
  };
  const toggleLabel = (title: string) =>
    run(
      "/labels",
      c.labels.includes(title)
        ? { labels: c.labels.filter((l) => l !== title) }
        : { labels: [...c.labels, title] },
    );
  return (
    <div class="actions">
      <div class="status-actions">
        {c.status === "resolved" ? (
          <button
            type="button"
            id="act-reopen"
            onClick={() => run("/toggle_status", { status: "open" })}
          >
            Reopen
          </button>
        ) : (
          <button
            type="button"
            class="primary"
            id="act-resolve"
            onClick={() => run("/toggle_status", { status: "resolved" })}
          >
            Resolve
          </button>
        )}
        {c.status !== "pending" && (
          <button type="button" onClick={() => run("/toggle_status", { status: "pending" })}>
            Pending
          </button>
        )}
        <button type="button" aria-expanded={snoozing} onClick={() => setSnoozing(!snoozing)}>
          Snooze…
        </button>
        <button type="button" onClick={() => run(c.muted ? "/unmute" : "/mute")}>
          {c.muted ? "Unmute" : "Mute"}
        </button>
      </div>
      {snoozing && (
        <form
          class="snooze"
          onSubmit={(e) => {
            e.preventDefault();
            const v = new FormData(e.currentTarget as HTMLFormElement).get("until");
            const at = Math.floor(new Date(String(v)).getTime() / 1000);
            if (at > 0) {
              run("/toggle_status", { status: "snoozed", snoozed_until: at });
              setSnoozing(false);
            }
          }}
        >
          <label>
            Snooze until <input type="datetime-local" name="until" required />
          </label>
          <button type="submit">Snooze</button>
        </form>
      )}
      <div class="pickers">
        <label>
          Agent
          <select
            id="assign-agent"
            value={c.meta.assignee?.id ?? ""}
            onChange={(e) => {
              const v = Number((e.currentTarget as HTMLSelectElement).value);
              run("/assignments", { assignee_id: v || null });
            }}
          >
            <option value="">Unassigned</option>
            {agents.value.map((a) => (
              <option value={a.id}>{a.available_name || a.name}</option>
            ))}
          </select>
        </label>
        <label>
          Team
          <select
            value={c.meta.team?.id ?? ""}
            onChange={(e) => {
              const v = Number((e.currentTarget as HTMLSelectElement).value);
              run("/assignments", { team_id: v || null });
            }}
          >
            <option value="">No team</option>
            {teams.value.map((t) => (
              <option value={t.id}>{t.name}</option>
            ))}
          </select>
        </label>
        <label>
          Priority
          <select
            value={c.priority ?? ""}
            onChange={(e) =>
              run("/toggle_priority", {
                priority: (e.currentTarget as HTMLSelectElement).value || null,
              })
            }
          >
            <option value="">None</option>
            {["urgent", "high", "medium", "low"].map((p) => (
              <option value={p}>{p}</option>
            ))}
          </select>
        </label>
      </div>
      <fieldset class="labels">
        <legend>Labels</legend>
        {[...new Set([...labels.value.map((l) => l.title), ...c.labels])].map((title) => (
          <label class="chip">
            <input
              type="checkbox"
              checked={c.labels.includes(title)}
              onChange={() => toggleLabel(title)}
            />
            {title}
          </label>
        ))}
        {labels.value.length === 0 && c.labels.length === 0 && (
          <span class="muted">No labels yet</span>
        )}
      </fieldset>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

import { useEffect, useState } from "preact/hooks";
import { acct, request } from "../lib/api";
import type { Inbox } from "../lib/types";
import { agents, inboxes, labels, loadDirectory, teams } from "../state/account";
import { go } from "../state/route";

const SECTIONS = ["inboxes", "agents", "teams", "labels"];

function useRun(accountId: number) {
  const [error, setError] = useState("");
  const [done, setDone] = useState("");
  const run = async (path: string, json: unknown, message: string, method = "POST") => {
    setError("");
    setDone("");
    try {
      const out = await request<unknown>(acct(accountId, path), { method, json });
      await loadDirectory(accountId);
      setDone(message);
      return out;
    } catch (err) {
      setError(err instanceof Error ? err.message : "Not saved");
      return null;
    }
  };
  const status = (
    <>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {done && <p role="status">{done}</p>}
    </>
  );
  return { run, status };
}

const form = (e: Event) => {
  e.preventDefault();
  const el = e.currentTarget as HTMLFormElement;
  const data = Object.fromEntries(new FormData(el)) as Record<string, string>;
  el.reset();
  return data;
};

export const scriptTag = (inbox: Inbox) =>
  `<script src="${location.origin}/widget.js" data-inbox="${inbox.inbox_identifier ?? ""}" async></script>`;

function Inboxes({ accountId }: { accountId: number }) {
  const { run, status } = useRun(accountId);
  return (
    <>
      <h2>Inboxes</h2>
      <ul class="admin-list">
        {inboxes.value.map((i) => (
          <li>
            <strong>{i.name}</strong> <span class="muted">{i.channel_type}</span>
            {i.channel_type === "Channel::WebWidget" && (
              <>
                <label class="block">
                  Script tag for your site
                  <textarea readOnly rows={2} value={scriptTag(i)} />
                </label>
                <button type="button" onClick={() => navigator.clipboard?.writeText(scriptTag(i))}>
                  Copy script tag
                </button>
                <form
                  class="inline"
                  onSubmit={(e) => {
                    const d = form(e);
                    void run(
                      `/inboxes/${i.id}`,
                      {
                        channel: {
                          widget_color: d.color,
                          ...(d.greeting
                            ? { greeting_enabled: true, greeting_message: d.greeting }
                            : {}),
                        },
                      },
                      "Saved",
                      "PATCH",
                    );
                  }}
                >
                  <label>
                    Colour <input type="color" name="color" value={i.widget_color ?? "#1f6feb"} />
                  </label>
                  <label>
                    Greeting{" "}
                    <input name="greeting" placeholder={i.greeting_message ?? ""} maxLength={255} />
                  </label>
                  <button type="submit">Save</button>
                </form>
              </>
            )}
          </li>
        ))}
      </ul>
      <form
        class="card"
        onSubmit={(e) => {
          const d = form(e);
          void run(
            "/inboxes",
            {
              name: d.name,
              channel: {
                type: "web_widget",
                website_url: d.url,
                widget_color: d.color,
                welcome_title: d.title || undefined,
                greeting_enabled: Boolean(d.greeting),
                greeting_message: d.greeting || undefined,
              },
            },
            "Inbox created: copy its script tag above.",
          );
        }}
      >
        <h3>New website inbox</h3>
        <label for="ib-name">Name</label>
        <input id="ib-name" name="name" required maxLength={255} />
        <label for="ib-url">Website URL</label>
        <input id="ib-url" name="url" type="url" required placeholder="https://shop.example" />
        <label for="ib-color">Widget colour</label>
        <input id="ib-color" name="color" type="color" value="#1f6feb" />
        <label for="ib-title">Welcome title</label>
        <input id="ib-title" name="title" maxLength={255} />
        <label for="ib-greeting">Greeting</label>
        <input id="ib-greeting" name="greeting" maxLength={255} />
        <button class="primary" type="submit">
          Create inbox
        </button>
      </form>
      {status}
    </>
  );
}

function Agents({ accountId }: { accountId: number }) {
  const { run, status } = useRun(accountId);
  return (
    <>
      <h2>Agents</h2>
      <ul class="admin-list">
        {agents.value.map((a) => (
          <li>
            <strong>{a.name}</strong> <span class="muted">{a.email}</span> · {a.role} ·{" "}
            {a.availability_status}
            {a.confirmed === false ? " · invited" : ""}
          </li>
        ))}
      </ul>
      <form
        class="card"
        onSubmit={(e) => {
          const d = form(e);
          void run("/agents", d, `Invitation mailed to ${d.email}`);
        }}
      >
        <h3>Invite an agent</h3>
        <label for="ag-name">Name</label>
        <input id="ag-name" name="name" required maxLength={255} />
        <label for="ag-email">Email</label>
        <input id="ag-email" name="email" type="email" required />
        <label for="ag-role">Role</label>
        <select id="ag-role" name="role">
          <option value="agent">Agent</option>
          <option value="administrator">Administrator</option>
        </select>
        <button class="primary" type="submit">
          Invite
        </button>
      </form>
      {status}
    </>
  );
}

function Teams({ accountId }: { accountId: number }) {
  const { run, status } = useRun(accountId);
  return (
    <>
      <h2>Teams</h2>
      <ul class="admin-list">
        {teams.value.map((t) => (
          <li>
            <strong>{t.name}</strong> <span class="muted">{t.description}</span>
          </li>
        ))}
      </ul>
      <form
        class="card"
        onSubmit={(e) => {
          const d = form(e);
          void run("/teams", d, "Team created");
        }}
      >
        <h3>New team</h3>
        <label for="tm-name">Name</label>
        <input id="tm-name" name="name" required maxLength={255} />
        <label for="tm-desc">Description</label>
        <input id="tm-desc" name="description" maxLength={255} />
        <button class="primary" type="submit">
          Create team
        </button>
      </form>
      {status}
    </>
  );
}

function Labels({ accountId }: { accountId: number }) {
  const { run, status } = useRun(accountId);
  return (
    <>
      <h2>Labels</h2>
      <ul class="admin-list">
        {labels.value.map((l) => (
          <li>
            <span class="swatch" style={{ background: l.color }} /> <strong>{l.title}</strong>{" "}
            <span class="muted">{l.description}</span>
          </li>
        ))}
      </ul>
      <form
        class="card"
        onSubmit={(e) => {
          const d = form(e);
          void run("/labels", { ...d, show_on_sidebar: true }, "Label created");
        }}
      >
        <h3>New label</h3>
        <label for="lb-title">Title</label>
        <input id="lb-title" name="title" required maxLength={255} />
        <label for="lb-color">Colour</label>
        <input id="lb-color" name="color" type="color" value="#1f6feb" />
        <label for="lb-desc">Description</label>
        <input id="lb-desc" name="description" maxLength={255} />
        <button class="primary" type="submit">
          Create label
        </button>
      </form>
      {status}
    </>
  );
}

export function Settings({ accountId, section }: { accountId: number; section: string }) {
  useEffect(() => {
    void loadDirectory(accountId);
  }, [accountId]);
  return (
    <main class="settings">
      <nav aria-label="Settings">
        {SECTIONS.map((s) => (
          <a
            href={`/app/accounts/${accountId}/settings/${s}`}
            aria-current={s === section ? "page" : undefined}
            onClick={(e) => {
              e.preventDefault();
              go(`/accounts/${accountId}/settings/${s}`);
            }}
          >
            {s[0]?.toUpperCase() + s.slice(1)}
          </a>
        ))}
      </nav>
      <div class="settings-body">
        {section === "agents" ? (
          <Agents accountId={accountId} />
        ) : section === "teams" ? (
          <Teams accountId={accountId} />
        ) : section === "labels" ? (
          <Labels accountId={accountId} />
        ) : (
          <Inboxes accountId={accountId} />
        )}
      </div>
    </main>
  );
}

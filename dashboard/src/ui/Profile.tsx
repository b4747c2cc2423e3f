import { useState } from "preact/hooks";
import { request } from "../lib/api";
import type { Profile as ProfileRecord } from "../lib/types";
import { askNotifications, notificationsOn, setSound, soundOn } from "../state/notify";
import { profile } from "../state/session";
import { Availability } from "./Availability";
import { setTheme, theme } from "./theme";

/** The agent's own name, availability, alerts and theme. */
export function Profile({ accountId }: { accountId: number }) {
  const me = profile.value;
  const [note, setNote] = useState("");
  if (!me) {
    return null;
  }
  return (
    <main class="settings">
      <div class="settings-body">
        <h2>Your profile</h2>
        <form
          class="card"
          onSubmit={async (e) => {
            e.preventDefault();
            const d = Object.fromEntries(new FormData(e.currentTarget as HTMLFormElement));
            try {
              profile.value = await request<ProfileRecord>("/api/v1/profile", {
                method: "PUT",
                json: { name: d.name, display_name: d.display_name || null },
              });
              setNote("Saved");
            } catch (err) {
              setNote(err instanceof Error ? err.message : "Not saved");
            }
          }}
        >
          <label for="pf-name">Name</label>
          <input id="pf-name" name="name" value={me.name} required maxLength={255} />
          <label for="pf-display">Display name</label>
          <input
            id="pf-display"
            name="display_name"
            value={me.display_name ?? ""}
            maxLength={255}
          />
          <p class="muted">{me.email}</p>
          <button class="primary" type="submit">
            Save
          </button>
          {note && <p role="status">{note}</p>}
        </form>
        <h3>Availability</h3>
        <Availability accountId={accountId} id="pf-availability" />
        <p class="muted">
          Busy and offline stand until you change them; online shows while the app is open.
        </p>
        <h3>Alerts and look</h3>
        <label class="check">
          <input
            type="checkbox"
            checked={soundOn.value}
            onChange={(e) => setSound((e.currentTarget as HTMLInputElement).checked)}
          />
          Play a sound for new messages while this tab is hidden
        </label>
        <label class="check">
          <input
            type="checkbox"
            checked={notificationsOn.value}
            disabled={notificationsOn.value}
            onChange={() => void askNotifications()}
          />
          Browser notifications for my and unassigned conversations
        </label>
        <label>
          Theme{" "}
          <select
            value={theme.value}
            onChange={(e) => setTheme((e.currentTarget as HTMLSelectElement).value as never)}
          >
            <option value="auto">Like the system</option>
            <option value="light">Light</option>
            <option value="dark">Dark</option>
          </select>
        </label>
      </div>
    </main>
  );
}

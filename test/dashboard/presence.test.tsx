import { fireEvent, waitFor, within } from "@testing-library/preact";
import { afterEach, describe, expect, it, vi } from "vitest";
import { mount } from "../../dashboard/src/lib/signal";
import type { Agent, Profile } from "../../dashboard/src/lib/types";
import { agents } from "../../dashboard/src/state/account";
import { applyPresence } from "../../dashboard/src/state/presence";
import { profile } from "../../dashboard/src/state/session";
import { Availability } from "../../dashboard/src/ui/Availability";

const me = (availability: "online" | "busy" | "offline", seen = availability): Profile => ({
  id: 7,
  name: "Ada",
  email: "ada@example.com",
  accounts: [
    { id: 1, name: "Acme", role: "agent", availability, availability_status: seen },
    { id: 2, name: "Other", role: "agent", availability: "online", availability_status: "online" },
  ],
});

let unmount = () => {};

/** As the app renders: again whenever a signal it read changes. */
function show(accountId: number) {
  const root = document.createElement("div");
  document.body.append(root);
  const stop = mount(() => <Availability accountId={accountId} id="av" />, root);
  unmount = () => {
    stop();
    root.remove();
  };
  return { container: root, ...within(root) };
}

afterEach(() => {
  unmount();
  vi.unstubAllGlobals();
  profile.value = null;
  agents.value = [];
});

describe("the agent's own availability", () => {
  it("sends Chatwoot's POST /profile/availability and shows what the answer says", async () => {
    profile.value = me("online");
    const calls: { url: string; init: RequestInit }[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string, init: RequestInit) => {
        calls.push({ url, init });
        return new Response(JSON.stringify(me("busy")), {
          headers: { "content-type": "application/json" },
        });
      }),
    );
    const view = show(1);
    const select = view.getByLabelText("Availability") as HTMLSelectElement;
    expect(select.value).toBe("online");
    fireEvent.change(select, { target: { value: "busy" } });
    await waitFor(() => expect(profile.value?.accounts[0]?.availability).toBe("busy"));
    expect(calls).toHaveLength(1);
    expect(calls[0]?.url).toBe("/api/v1/profile/availability");
    expect(calls[0]?.init.method).toBe("POST");
    expect(JSON.parse(String(calls[0]?.init.body))).toEqual({
      profile: { account_id: 1, availability: "busy" },
    });
    expect(select.value).toBe("busy");
    expect(view.container.querySelector(".avail-dot")?.className).toContain("busy");
  });

  it("says so when the choice is refused, keeping the last known one", async () => {
    profile.value = me("online");
    vi.stubGlobal(
      "fetch",
      vi.fn(
        async () =>
          new Response(
            JSON.stringify({ error: "Resource could not be found", code: "not_found" }),
            {
              status: 404,
            },
          ),
      ),
    );
    const view = show(1);
    fireEvent.change(view.getByLabelText("Availability"), { target: { value: "offline" } });
    await waitFor(() =>
      expect(view.getByRole("alert").textContent).toContain("could not be found"),
    );
    expect(profile.value?.accounts[0]?.availability).toBe("online");
  });

  it("follows the feed's presence.update: the directory, and the agent's own status", () => {
    profile.value = me("online", "offline");
    const agent = (id: number): Agent => ({ id, name: `A${id}`, availability_status: "online" });
    agents.value = [agent(7), agent(8), agent(9)];
    applyPresence({ account_id: 1, users: { "8": "busy" } });
    expect(agents.value.map((a) => a.availability_status)).toEqual(["online", "busy", "online"]);
    expect(profile.value?.accounts[0]?.availability_status).toBe("offline");
    applyPresence({ account_id: 1, users: { "7": "online" } });
    expect(profile.value?.accounts[0]).toMatchObject({
      availability: "online",
      availability_status: "online",
    });
    // Another account's membership is not touched.
    expect(profile.value?.accounts[1]?.availability_status).toBe("online");
    applyPresence({ account_id: 1, users: {} });
    expect(agents.value[1]?.availability_status).toBe("busy");
  });
});

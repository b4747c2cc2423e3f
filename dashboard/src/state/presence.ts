import { request } from "../lib/api";
import { signal } from "../lib/signal";
import type { Availability, Profile } from "../lib/types";
import { agents } from "./account";
import { profile } from "./session";

export const availabilityError = signal("");

/** The signed-in agent's membership of `accountId` (choice and what others see). */
export const membershipOf = (accountId: number) =>
  profile.value?.accounts.find((a) => a.id === accountId);

/** The agent's own choice (POST /api/v1/profile/availability); the answer is the profile. */
export async function chooseAvailability(accountId: number, availability: Availability) {
  availabilityError.value = "";
  try {
    profile.value = await request<Profile>("/api/v1/profile/availability", {
      json: { profile: { account_id: accountId, availability } },
    });
  } catch (err) {
    availabilityError.value = err instanceof Error ? err.message : "Not changed";
  }
}

/**
 * The feed's `presence.update` (`{account_id, users: {"<id>": status}}`): the directory's agents
 * (assignee pickers show who is online) and the agent's own status when it is about them (another
 * tab chose, or their last socket closed).
 */
export function applyPresence(data: Record<string, unknown>) {
  const accountId = Number(data.account_id);
  const users = (data.users ?? {}) as Record<string, Availability>;
  const ids = Object.keys(users);
  if (ids.length === 0) {
    return;
  }
  agents.value = agents
    .peek()
    .map((a) => (String(a.id) in users ? { ...a, availability_status: users[String(a.id)] } : a));
  const me = profile.peek();
  const mine = me ? users[String(me.id)] : undefined;
  if (me && mine) {
    profile.value = {
      ...me,
      accounts: me.accounts.map((a) =>
        a.id === accountId ? { ...a, availability_status: mine } : a,
      ),
    };
  }
}

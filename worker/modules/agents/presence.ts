import { sql } from "drizzle-orm";
import { type AccountUserRow, accountUsers } from "../../db/schema";
import type { Frame } from "../../realtime/protocol";

type Presence = Pick<AccountUserRow, "availability" | "autoOffline" | "connectedAt">;

/**
 * Chatwoot parity (OnlineStatusTracker): what an agent chose (busy, offline) stands; one who
 * chose online is online while a socket of theirs to the account is open, or always when
 * `auto_offline` is off.
 */
export function availabilityStatus(m: Presence): AccountUserRow["availability"] {
  if (m.availability !== "online") {
    return m.availability;
  }
  return m.autoOffline && m.connectedAt === null ? "offline" : "online";
}

/** The same, in SQL over account_users. */
export const AVAILABILITY_STATUS = sql<AccountUserRow["availability"]>`(CASE
  WHEN ${accountUsers.availability} <> 'online' THEN ${accountUsers.availability}
  WHEN ${accountUsers.autoOffline} AND ${accountUsers.connectedAt} IS NULL THEN 'offline'
  ELSE 'online' END)`;

/** Who auto-assignment may pick: chose online, and is connected or never goes offline. */
export const IS_ONLINE = sql`(${accountUsers.availability} = 'online' AND (${accountUsers.connectedAt} IS NOT NULL OR NOT ${accountUsers.autoOffline}))`;

/**
 * Chatwoot's `presence.update` for one agent: the one frame every change of what others see
 * sends (a socket opening or closing, the agent's own choice, an administrator's).
 */
export const presenceFrame = (
  accountId: number,
  userId: number,
  status: AccountUserRow["availability"],
): Frame => ({
  event: "presence.update",
  data: { account_id: accountId, users: { [userId]: status } },
});

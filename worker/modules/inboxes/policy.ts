import type { AccountRole } from "../access-tokens/service";

/** Who is asking, reduced to what inbox visibility depends on. */
export type InboxCaller = { role: AccountRole; userId: number | null };

/** Chatwoot parity (User#assigned_inboxes): administrators see every inbox, agents their own. */
export const seesAllInboxes = (caller: InboxCaller) => caller.role === "administrator";

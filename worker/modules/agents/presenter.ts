import type { z } from "@hono/zod-openapi";
import { availabilityStatus } from "./presence";
import type { AgentRow } from "./queries";
import type { AgentSchema } from "./schema";

export type AgentJson = z.infer<typeof AgentSchema>;

/** Chatwoot's agent partial; inbox members use the same record. */
export function presentAgent({ user, membership }: AgentRow): AgentJson {
  return {
    id: user.id,
    account_id: membership.accountId,
    availability_status: availabilityStatus(membership),
    auto_offline: membership.autoOffline,
    confirmed: user.confirmed,
    email: user.email,
    available_name: user.displayName || user.name,
    name: user.name,
    role: membership.role,
    thumbnail: user.avatarUrl ?? "",
    // Custom roles are an enterprise feature Parley does not have.
    custom_role_id: null,
  };
}

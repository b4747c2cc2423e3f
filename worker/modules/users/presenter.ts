import type { z } from "@hono/zod-openapi";
import type { AccountUserRow, UserRow } from "../../db/schema";
import { isoFromSeconds } from "../../lib/time";
import { availabilityStatus } from "../agents/presence";
import type { Sender } from "../messages/schema";
import type { MembershipWithAccount } from "./queries";
import type { AccountUserSchema, UserAccountSchema, UserRef, UserSchema } from "./schema";

/** Everything the user record needs, loaded by the service before presenting. */
export type UserView = {
  user: UserRow;
  accessToken: string;
  hmacIdentifier: string;
  memberships: MembershipWithAccount[];
};

function presentUserAccount({
  membership,
  account,
}: MembershipWithAccount): z.infer<typeof UserAccountSchema> {
  return {
    id: account.id,
    name: account.name,
    status: account.status,
    active_at: membership.activeAt === null ? null : isoFromSeconds(membership.activeAt),
    role: membership.role,
    permissions: [membership.role],
    availability: membership.availability,
    // What the user chose, and (online) whether a socket of theirs is open.
    availability_status: availabilityStatus(membership),
    auto_offline: membership.autoOffline,
    custom_role_id: null,
    custom_role: null,
  };
}

export function presentUser(view: UserView): z.infer<typeof UserSchema> {
  const { user, memberships } = view;
  const first = memberships[0]?.membership;
  const body: z.infer<typeof UserSchema> = {
    id: user.id,
    access_token: view.accessToken,
    account_id: first?.accountId ?? null,
    available_name: user.displayName || user.name,
    avatar_url: user.avatarUrl ?? "",
    confirmed: user.confirmed,
    display_name: user.displayName,
    message_signature: user.messageSignature,
    email: user.email,
    hmac_identifier: view.hmacIdentifier,
    inviter_id: first?.inviterId ?? null,
    name: user.name,
    provider: "email",
    pubsub_token: user.pubsubToken,
    role: first?.role ?? null,
    ui_settings: user.uiSettings,
    uid: user.email,
    type: user.type ?? "User",
    accounts: memberships.map(presentUserAccount),
  };
  if (Object.keys(user.customAttributes).length > 0) {
    body.custom_attributes = user.customAttributes;
  }
  return body;
}

export function presentAccountUser(row: AccountUserRow): z.infer<typeof AccountUserSchema> {
  return {
    id: row.id,
    account_id: row.accountId,
    user_id: row.userId,
    role: row.role,
    inviter_id: row.inviterId,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

/** The name a user shows to the people it talks to: its display name when it has one. */
export const displayNameOf = (user: UserRow) => user.displayName ?? user.name;

/** The user where another record names it (the live frames' assignee). */
export function presentUserRef(user: UserRow): UserRef {
  return { id: user.id, name: displayNameOf(user), avatar_url: user.avatarUrl ?? "" };
}

/** The user as a message's sender (and a webhook conversation's assignee). */
export function presentUserSender(user: UserRow): Sender {
  const avatar = user.avatarUrl ?? "";
  return {
    id: user.id,
    name: user.name,
    available_name: displayNameOf(user),
    type: "user",
    avatar_url: avatar,
    thumbnail: avatar,
  };
}

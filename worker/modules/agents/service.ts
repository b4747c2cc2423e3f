import type { AccountRow, UserRow } from "../../db/schema";
import type { Deps } from "../../events/deps";
import { isUniqueViolation } from "../../lib/db-errors";
import { ApiError, invalidField } from "../../lib/errors";
import { secureToken } from "../../lib/ids";
import { pickDefined } from "../../lib/patch";
import { availabilityMoved } from "../assignment/hooks";
import { auditedChanges, auditRow, INSERTED_ID } from "../audit-logs/service";
import { issueLink, LINK_TTL_SECONDS } from "../auth/links";
import { joinAccountMail, newAgentMail } from "../auth/mail";
import { sendMail } from "../auth/service";
import { accessRevoked, revokedAfter, userHolder } from "../live/revocation";
import { displayNameOf } from "../users/presenter";
import {
  deleteInboxMembershipsInAccount,
  deleteTeamMembershipsInAccount,
  findMembership,
} from "../users/queries";
import { availabilityStatus } from "./presence";
import {
  type AgentRow,
  deleteMembership,
  findAgent,
  findUserByEmail,
  insertMembershipForEmail,
  insertTokenForEmail,
  insertUser,
  type NewMembership,
  updateMembership,
} from "./queries";
import type { AgentCreate, AgentUpdate } from "./schema";

const LAST_ADMIN = "cannot be changed: the account needs at least one administrator";

async function loadAgent(deps: Deps, accountId: number, userId: number): Promise<AgentRow> {
  const row = await findAgent(deps.db, accountId, userId);
  if (!row) {
    throw new ApiError("not_found");
  }
  return row;
}

function membershipValues(input: AgentUpdate): Partial<NewMembership> {
  return pickDefined(
    { ...input, availability: input.availability_status ?? input.availability },
    { role: "role", availability: "availability", auto_offline: "autoOffline" },
  ) as Partial<NewMembership>;
}

/** Who adds an agent, and where: what the invitation mail names. */
export type Inviting = { account: AccountRow; inviter: UserRow };

/**
 * Adds an agent by email. A new email gets a user (unconfirmed, with its access token) and a
 * membership in one batch, and a mail with a link to choose a password. An email that already
 * has a user gets an invitation mail instead: the user joins when they accept, and until then
 * the answer shows only what the inviter sent, nothing of the user's own record.
 */
export async function addAgent(
  deps: Deps,
  { account, inviter }: Inviting,
  input: AgentCreate,
): Promise<AgentRow> {
  const { db } = deps;
  const membership = { accountId: account.id, inviterId: inviter.id, ...membershipValues(input) };
  const mailed = { accountName: account.name, inviterName: displayNameOf(inviter) };
  const existing = await findUserByEmail(db, input.email);
  if (existing) {
    if (await findMembership(db, account.id, existing.id)) {
      throw invalidField("email", "is already a member of this account");
    }
    const url = await issueLink(deps, "join_account", existing.id, LINK_TTL_SECONDS.invitation, {
      accountId: account.id,
      role: membership.role ?? "agent",
      inviterId: inviter.id,
    });
    if (url) {
      await sendMail(deps, joinAccountMail(existing.email, { ...mailed, url }));
    }
    return invitedAgent(deps, existing.id, input, membership);
  }
  try {
    await db.batch([
      insertUser(db, {
        name: input.name,
        email: input.email,
        confirmed: false,
        pubsubToken: secureToken(),
      }),
      insertTokenForEmail(db, input.email, secureToken()),
      insertMembershipForEmail(db, input.email, membership),
      // Chatwoot audits the account user it creates (AccountUser create).
      auditRow(deps, {
        accountId: account.id,
        action: "create",
        type: "AccountUser",
        id: INSERTED_ID,
        changes: auditedChanges(null, { ...membership, email: input.email }),
      }),
    ]);
  } catch (err) {
    // A concurrent request added the same email first.
    if (isUniqueViolation(err)) {
      throw invalidField("email", "has already been taken");
    }
    throw err;
  }
  const agent = await loadAgent(
    deps,
    account.id,
    (await findUserByEmail(db, input.email))?.id ?? 0,
  );
  const url = await issueLink(deps, "set_password", agent.user.id, LINK_TTL_SECONDS.invitation);
  if (url) {
    await sendMail(deps, newAgentMail(agent.user.email, { ...mailed, url }));
  }
  return agent;
}

/** The agent record of a pending invitation: the inviter's own words and defaults only. */
function invitedAgent(
  deps: Deps,
  userId: number,
  input: AgentCreate,
  membership: Omit<NewMembership, "userId">,
): AgentRow {
  const now = deps.now();
  return {
    user: {
      id: userId,
      name: input.name,
      displayName: null,
      email: input.email,
      passwordHash: null,
      avatarUrl: null,
      confirmed: false,
      messageSignature: null,
      uiSettings: {},
      customAttributes: {},
      type: null,
      pubsubToken: "",
      createdAt: now,
      updatedAt: now,
    },
    membership: {
      id: 0,
      accountId: membership.accountId,
      userId,
      role: membership.role ?? "agent",
      availability: "online",
      autoOffline: true,
      connectedAt: null,
      inviterId: membership.inviterId ?? null,
      activeAt: null,
      createdAt: now,
      updatedAt: now,
    },
  };
}

const OWN_NAME = "is the user's own: they change it with PUT /api/v1/profile";

/**
 * An administrator changes what belongs to the account (role, availability: a new status is
 * announced as the agent's own choice is); the name is the user's, shared by every account they
 * are in, so only the user or their platform app changes it. Sending the current name back (as
 * clients that PATCH whole records do) is fine.
 */
export async function updateAgent(
  deps: Deps,
  accountId: number,
  userId: number,
  input: AgentUpdate,
): Promise<AgentRow> {
  const current = await loadAgent(deps, accountId, userId);
  if (input.name !== undefined && input.name !== current.user.name) {
    throw invalidField("name", OWN_NAME, `Name ${OWN_NAME}`);
  }
  const values = membershipValues(input);
  if (Object.keys(values).length > 0) {
    const [updated] = await updateMembership(deps.db, accountId, userId, {
      ...values,
      updatedAt: deps.now(),
    });
    if (!updated) {
      throw invalidField("role", LAST_ADMIN);
    }
    // After the guarded update took: a refused one (the last administrator) is no change.
    const changes = auditedChanges(current.membership, values);
    if (Object.keys(changes).length > 0) {
      await auditRow(deps, {
        accountId,
        action: "update",
        type: "AccountUser",
        id: current.membership.id,
        changes,
      });
    }
    // What others see of the agent (availability, auto_offline): the feed hears it at once.
    const status = availabilityStatus(updated);
    if (status !== availabilityStatus(current.membership)) {
      await availabilityMoved(deps.env, accountId, userId, status);
    }
    if (values.role !== undefined && values.role !== current.membership.role) {
      // A new role is a new view (an administrator sees every inbox): sockets reopen with it.
      revokedAfter(deps, [accessRevoked(accountId, [userHolder(userId)])]);
    }
  }
  return loadAgent(deps, accountId, userId);
}

/** Removes the user from the account and its inboxes and teams; the user itself stays. */
export async function removeAgent(deps: Deps, accountId: number, userId: number): Promise<void> {
  const { db } = deps;
  await loadAgent(deps, accountId, userId);
  const [deleted] = await db.batch([
    deleteMembership(db, accountId, userId),
    deleteInboxMembershipsInAccount(db, accountId, userId),
    deleteTeamMembershipsInAccount(db, accountId, userId),
  ]);
  if (deleted.length === 0) {
    throw invalidField("id", LAST_ADMIN, `The agent ${LAST_ADMIN}`);
  }
  revokedAfter(deps, [accessRevoked(accountId, [userHolder(userId)])]);
}

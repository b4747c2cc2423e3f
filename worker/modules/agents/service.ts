import type { Deps } from "../../events/deps";
import { isUniqueViolation } from "../../lib/db-errors";
import { ApiError, invalidField } from "../../lib/errors";
import { secureToken } from "../../lib/ids";
import { pickDefined } from "../../lib/patch";
import {
  deleteInboxMembershipsInAccount,
  deleteTeamMembershipsInAccount,
  findMembership,
} from "../users/queries";
import {
  type AgentRow,
  deleteMembership,
  findAgent,
  findUserByEmail,
  insertMembership,
  insertMembershipForEmail,
  insertTokenForEmail,
  insertUser,
  type NewMembership,
  updateMembership,
  updateUserName,
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

/**
 * Chatwoot parity (AgentBuilder): an email that already has a user adds that user to the
 * account; otherwise the user is created with its access token, in one batch.
 */
export async function addAgent(
  deps: Deps,
  accountId: number,
  inviterId: number,
  input: AgentCreate,
): Promise<AgentRow> {
  const { db } = deps;
  const membership = { accountId, inviterId, ...membershipValues(input) };
  const existing = await findUserByEmail(db, input.email);
  try {
    if (existing) {
      if (await findMembership(db, accountId, existing.id)) {
        throw invalidField("email", "is already a member of this account");
      }
      await insertMembership(db, { ...membership, userId: existing.id });
    } else {
      await db.batch([
        insertUser(db, { name: input.name, email: input.email, pubsubToken: secureToken() }),
        insertTokenForEmail(db, input.email, secureToken()),
        insertMembershipForEmail(db, input.email, membership),
      ]);
    }
  } catch (err) {
    // A concurrent request added the same email or membership first.
    if (isUniqueViolation(err)) {
      throw invalidField("email", "has already been taken");
    }
    throw err;
  }
  const user = existing ?? (await findUserByEmail(db, input.email));
  return loadAgent(deps, accountId, user?.id ?? 0);
}

/** Name lives on the user (shared across accounts, as in Chatwoot); the rest on the membership. */
export async function updateAgent(
  deps: Deps,
  accountId: number,
  userId: number,
  input: AgentUpdate,
): Promise<AgentRow> {
  await loadAgent(deps, accountId, userId);
  const values = membershipValues(input);
  if (Object.keys(values).length > 0) {
    const [updated] = await updateMembership(deps.db, accountId, userId, {
      ...values,
      updatedAt: deps.now(),
    });
    if (!updated) {
      throw invalidField("role", LAST_ADMIN);
    }
  }
  if (input.name !== undefined) {
    await updateUserName(deps.db, userId, input.name, deps.now());
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
}

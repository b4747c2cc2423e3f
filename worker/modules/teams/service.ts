import type { TeamRow } from "../../db/schema";
import type { Deps } from "../../events/deps";
import { isUniqueViolation } from "../../lib/db-errors";
import { ApiError, invalidField } from "../../lib/errors";
import type { AgentRow } from "../agents/queries";
import { auditedChanges, auditRow, INSERTED_ID, memberAuditRows } from "../audit-logs/service";
import {
  accountUserIds,
  deleteAllMembers,
  deleteMembers,
  deleteTeam as deleteTeamRow,
  findTeam,
  findTeamByName,
  insertMembers,
  insertTeam,
  listMembers,
  listTeams,
  memberUserIds,
  type NewTeam,
  teamIdsOfUser,
  updateTeam as updateTeamRow,
} from "./queries";
import type { TeamCreate, TeamUpdate } from "./schema";

const nameTaken = () =>
  invalidField("name", "has already been taken", "Name has already been taken");

export async function loadTeam(deps: Deps, accountId: number, id: number): Promise<TeamRow> {
  const team = await findTeam(deps.db, accountId, id);
  if (!team) {
    throw new ApiError("not_found");
  }
  return team;
}

/** The account's teams and which of them `userId` belongs to (for `is_member`). */
export async function listTeamsFor(deps: Deps, accountId: number, userId: number | null) {
  const [teams, memberOf] = await Promise.all([
    listTeams(deps.db, accountId),
    userId === null ? new Set<number>() : teamIdsOfUser(deps.db, accountId, userId),
  ]);
  return { teams, memberOf };
}

export async function isTeamMember(deps: Deps, team: TeamRow, userId: number | null) {
  return userId !== null && (await teamIdsOfUser(deps.db, team.accountId, userId)).has(team.id);
}

function teamValues(input: TeamUpdate): Partial<NewTeam> {
  const values: Partial<NewTeam> = {};
  if (input.name !== undefined) {
    values.name = input.name;
  }
  if (input.description !== undefined) {
    values.description = input.description;
  }
  if (input.allow_auto_assign !== undefined) {
    values.allowAutoAssign = input.allow_auto_assign;
  }
  return values;
}

/** Chatwoot parity: names are unique per account (compared lower-cased, as stored). */
export async function createTeam(
  deps: Deps,
  accountId: number,
  input: TeamCreate,
): Promise<TeamRow> {
  if (await findTeamByName(deps.db, accountId, input.name)) {
    throw nameTaken();
  }
  try {
    const values = { ...teamValues(input), name: input.name };
    const [[row]] = await deps.db.batch([
      insertTeam(deps.db, { ...values, accountId }),
      auditRow(deps, {
        accountId,
        action: "create",
        type: "Team",
        id: INSERTED_ID,
        changes: auditedChanges(null, values),
      }),
    ]);
    if (!row) {
      throw new ApiError("internal_error");
    }
    return row;
  } catch (err) {
    throw isUniqueViolation(err) ? nameTaken() : err;
  }
}

export async function updateTeam(deps: Deps, team: TeamRow, input: TeamUpdate): Promise<TeamRow> {
  if (
    input.name !== undefined &&
    (await findTeamByName(deps.db, team.accountId, input.name, team.id))
  ) {
    throw nameTaken();
  }
  try {
    const values = { ...teamValues(input), updatedAt: deps.now() };
    const changes = auditedChanges(team, values);
    const update = updateTeamRow(deps.db, team.accountId, team.id, values);
    const [[row]] =
      Object.keys(changes).length > 0
        ? await deps.db.batch([
            update,
            auditRow(deps, {
              accountId: team.accountId,
              action: "update",
              type: "Team",
              id: team.id,
              changes,
            }),
          ])
        : [await update];
    return row ?? team;
  } catch (err) {
    throw isUniqueViolation(err) ? nameTaken() : err;
  }
}

export async function deleteTeam(deps: Deps, team: TeamRow): Promise<void> {
  const { db } = deps;
  const { id, accountId, ...attributes } = team;
  await db.batch([
    deleteAllMembers(db, id),
    deleteTeamRow(db, accountId, id),
    auditRow(deps, {
      accountId,
      action: "destroy",
      type: "Team",
      id,
      changes: auditedChanges(null, attributes),
    }),
  ]);
}

export const listTeamMembers = (deps: Deps, team: TeamRow) =>
  listMembers(deps.db, team.accountId, team.id);

/** Every id must be a user of the team's account; otherwise 422 naming them, and nothing changes. */
async function checkAccountUsers(deps: Deps, team: TeamRow, userIds: number[]): Promise<number[]> {
  const ids = [...new Set(userIds)];
  const known = await accountUserIds(deps.db, team.accountId, ids);
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length > 0) {
    const list = unknown.join(", ");
    throw invalidField(
      "user_ids",
      `not users of this account: ${list}`,
      `Invalid User IDs: ${list}`,
    );
  }
  return ids;
}

const memberAudits = (deps: Deps, team: TeamRow, action: "create" | "destroy", ids: number[]) =>
  memberAuditRows(deps, team.accountId, "TeamMember", action, { team_id: team.id }, ids);

/** The membership change with the audit rows of the members it adds and removes. */
async function runBatch(
  deps: Deps,
  team: TeamRow,
  statements: ReturnType<typeof insertMembers>,
  change: { added: number[]; removed: number[] },
) {
  const [first, ...rest] = [
    ...statements,
    ...memberAudits(deps, team, "create", change.added),
    ...memberAudits(deps, team, "destroy", change.removed),
  ];
  if (first) {
    await deps.db.batch([first, ...rest]);
  }
}

/** Chatwoot parity: adds the listed users (members already are kept) and returns them. */
export async function addTeamMembers(
  deps: Deps,
  team: TeamRow,
  userIds: number[],
): Promise<AgentRow[]> {
  const ids = await checkAccountUsers(deps, team, userIds);
  const current = new Set(await memberUserIds(deps.db, team.id));
  const added = ids.filter((id) => !current.has(id));
  await runBatch(deps, team, insertMembers(deps.db, team.id, ids), { added, removed: [] });
  const listed = new Set(ids);
  return (await listTeamMembers(deps, team)).filter((m) => listed.has(m.user.id));
}

/** Chatwoot parity: the team ends up with exactly the listed users, in one batch. */
export async function replaceTeamMembers(
  deps: Deps,
  team: TeamRow,
  userIds: number[],
): Promise<AgentRow[]> {
  const ids = await checkAccountUsers(deps, team, userIds);
  const wanted = new Set(ids);
  const current = await memberUserIds(deps.db, team.id);
  const stale = current.filter((id) => !wanted.has(id));
  const added = ids.filter((id) => !current.includes(id));
  await runBatch(
    deps,
    team,
    [...deleteMembers(deps.db, team.id, stale), ...insertMembers(deps.db, team.id, ids)],
    { added, removed: stale },
  );
  return listTeamMembers(deps, team);
}

export async function removeTeamMembers(deps: Deps, team: TeamRow, userIds: number[]) {
  const ids = await checkAccountUsers(deps, team, userIds);
  const current = new Set(await memberUserIds(deps.db, team.id));
  const removed = ids.filter((id) => current.has(id));
  await runBatch(deps, team, deleteMembers(deps.db, team.id, ids), { added: [], removed });
}

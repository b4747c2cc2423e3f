import { CONVERSATION_PRIORITIES, CONVERSATION_STATUSES } from "../../db/schema";
import type { Deps } from "../../events/deps";
import type { ErrorDetail } from "../../lib/errors";
import { loopbackAllowed, publicUrlProblem } from "../../lib/public-url";
import { accountMemberIds } from "../agents/queries";
import { numberValue } from "../filters/values";
import { emailList, isNil, isRuleAction, type ParamKind, RULE_ACTIONS } from "./actions";
import { accountAttachments, accountTeamIds } from "./queries";
import type { RuleActionInput } from "./schema";

/** Ids the params name, checked against the account in one query per kind. */
type Refs = { users: Map<number, string>; teams: Map<number, string>; files: Map<number, string> };

const nonBlank = (v: unknown, max: number) =>
  typeof v === "string" && v.trim() !== "" && v.length <= max;

const idOf = (v: unknown) => {
  const n = numberValue(v, true);
  return n !== null && n > 0 ? n : null;
};

function teamEmailProblem(param: unknown, refs: Refs, path: string): string | null {
  const { team_ids: teamIds, message } = (param ?? {}) as { team_ids?: unknown; message?: unknown };
  if (!Array.isArray(teamIds) || teamIds.length === 0 || !nonBlank(message, 10_000)) {
    return 'must be [{team_ids: [...], message: "..."}]';
  }
  for (const raw of teamIds) {
    const id = idOf(raw);
    if (id === null) {
      return "team_ids must be team ids";
    }
    refs.teams.set(id, path);
  }
  return null;
}

/** The shape of one action's params; ids are remembered in `refs` for the account check. */
function paramsProblem(kind: ParamKind, params: unknown[], refs: Refs, path: string) {
  const [first] = params;
  switch (kind) {
    case "none":
      return null;
    case "user":
    case "team": {
      const unassigns = isNil(first) && (kind === "team" || (first !== 0 && first !== "0"));
      if (unassigns) {
        return null;
      }
      const id = idOf(first);
      if (id === null) {
        return `must be [${kind}_id] or ["nil"]`;
      }
      (kind === "user" ? refs.users : refs.teams).set(id, path);
      return null;
    }
    case "labels":
      return params.length > 0 && params.every((p) => nonBlank(p, 255))
        ? null
        : "must be a list of label titles";
    case "text":
      return nonBlank(first, 150_000) ? null : "must be [text]";
    case "status":
      return CONVERSATION_STATUSES.includes(first as never)
        ? null
        : `must be one of ${CONVERSATION_STATUSES.join(", ")}`;
    case "priority":
      return first === "nil" || first === null || CONVERSATION_PRIORITIES.includes(first as never)
        ? null
        : `must be one of ${CONVERSATION_PRIORITIES.join(", ")}, nil`;
    case "url":
      return null; // urlProblem, which needs the environment
    case "email_to_team":
      return teamEmailProblem(first, refs, path);
    case "emails":
      return emailList(first) ? null : 'must be ["a@example.com, b@example.com"]';
    case "attachments": {
      const ids = params.map(idOf);
      if (ids.length === 0 || ids.some((id) => id === null)) {
        return "must be a list of attachment ids";
      }
      for (const id of ids as number[]) {
        refs.files.set(id, path);
      }
      return null;
    }
  }
}

/** The webhooks' rule for receivers: absolute http(s), not private (checked again at send). */
const urlProblem = (url: unknown, allowLoopback: boolean) =>
  typeof url === "string" && url.length <= 2048
    ? publicUrlProblem(url, allowLoopback)
    : "must be [url]";

async function unknownRefs(deps: Deps, accountId: number, refs: Refs): Promise<ErrorDetail[]> {
  const [users, teams, files] = await Promise.all([
    accountMemberIds(deps.db, accountId, [...refs.users.keys()]),
    accountTeamIds(deps.db, accountId, [...refs.teams.keys()]),
    accountAttachments(deps.db, accountId, [...refs.files.keys()]),
  ]);
  const fileIds = new Set(files.map((f) => f.id));
  const problems: ErrorDetail[] = [];
  const missing = (wanted: Map<number, string>, found: Set<number>, what: string) => {
    for (const [id, path] of wanted) {
      if (!found.has(id)) {
        problems.push({ path, message: `${id} is not ${what} of this account` });
      }
    }
  };
  missing(refs.users, users, "a user");
  missing(refs.teams, teams, "a team");
  missing(refs.files, fileIds, "an attachment");
  return problems;
}

/**
 * Chatwoot's action names, each with params of the right shape naming this account's records.
 * `allowed`: the names this list may use (a macro's are fewer than a rule's).
 */
export async function actionProblems(
  deps: Deps,
  accountId: number,
  actions: readonly RuleActionInput[],
  allowed?: ReadonlySet<string>,
): Promise<ErrorDetail[]> {
  const problems: ErrorDetail[] = [];
  const refs: Refs = { users: new Map(), teams: new Map(), files: new Map() };
  const allowLoopback = loopbackAllowed(deps.env);
  actions.forEach((action, i) => {
    const path = `actions.${i}.action_params`;
    if (!isRuleAction(action.action_name) || (allowed && !allowed.has(action.action_name))) {
      problems.push({ path: `actions.${i}.action_name`, message: "is not a supported action" });
      return;
    }
    const kind = RULE_ACTIONS[action.action_name];
    const problem =
      kind === "url"
        ? urlProblem(action.action_params[0], allowLoopback)
        : paramsProblem(kind, action.action_params, refs, path);
    if (problem) {
      problems.push({ path, message: problem });
    }
  });
  return [...problems, ...(await unknownRefs(deps, accountId, refs))];
}

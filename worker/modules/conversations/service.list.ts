import type { ConversationRow } from "../../db/schema";
import { ApiError } from "../../lib/errors";
import type { ConversationScope } from "./access";
import { callerUserId, viewerOf } from "./policy";
import { findContact } from "./queries";
import {
  assigneeCondition,
  type CountRow,
  countConversations,
  type ListFilter,
  pageConversations,
} from "./queries.list";
import type { AssigneeType, ConversationListParams, Counts, SortKey } from "./schema";
import { ftsQuery } from "./search";

/** Chatwoot's CONVERSATION_RESULTS_PER_PAGE. */
export const CONVERSATIONS_PER_PAGE = 25;

/** Chatwoot parity: contacts' conversation lists show the latest 20. */
const CONTACT_CONVERSATIONS_LIMIT = 20;

const NO_COUNTS: Counts = { mine_count: 0, unassigned_count: 0, assigned_count: 0, all_count: 0 };

const toCounts = (row: CountRow | undefined): Counts => {
  const all = Number(row?.all ?? 0);
  const unassigned = Number(row?.unassigned ?? 0);
  return {
    mine_count: Number(row?.mine ?? 0),
    unassigned_count: unassigned,
    assigned_count: all - unassigned,
    all_count: all,
  };
};

/**
 * The counted set of E4 (Chatwoot's ConversationFinder): the caller's inboxes, then status
 * (skipped when searching, as Chatwoot does), inbox, team, labels (any of them) and `q`.
 * Null when `q` has nothing searchable in it: such a search finds nothing.
 */
export function listFilter(
  scope: ConversationScope,
  params: ConversationListParams,
): ListFilter | null {
  const q = params.q?.trim() ?? "";
  const match = q === "" ? undefined : ftsQuery(q);
  if (match === null) {
    return null;
  }
  const labels = [...new Set([...(params.labels ?? []), ...(params["labels[]"] ?? [])])];
  return {
    accountId: scope.account.id,
    viewer: viewerOf(scope),
    status: match === undefined ? params.status : "all",
    inboxId: params.inbox_id,
    teamId: params.team_id,
    labels,
    match,
  };
}

export type PageRequest = { assigneeType: AssigneeType; sort: SortKey; page: number };

export type ConversationPage = { counts: Counts; rows: ConversationRow[] };

/** Counts (before assignee_type) and one page (after it), in one D1 round trip. */
export async function pageOf(
  scope: ConversationScope,
  filter: ListFilter | null,
  req: PageRequest,
): Promise<ConversationPage> {
  if (!filter) {
    return { counts: NO_COUNTS, rows: [] };
  }
  const { db } = scope.deps;
  const userId = callerUserId(scope.actor);
  const [countRows, rows] = await db.batch([
    countConversations(db, filter, userId),
    pageConversations(db, filter, {
      sort: req.sort,
      limit: CONVERSATIONS_PER_PAGE,
      offset: (req.page - 1) * CONVERSATIONS_PER_PAGE,
      assignee: assigneeCondition(req.assigneeType, userId),
    }),
  ]);
  return { counts: toCounts(countRows[0]), rows };
}

export const listConversations = (scope: ConversationScope, params: ConversationListParams) =>
  pageOf(scope, listFilter(scope, params), {
    assigneeType: params.assignee_type,
    sort: params.sort_by,
    page: params.page,
  });

export async function countOnly(
  scope: ConversationScope,
  params: ConversationListParams,
): Promise<Counts> {
  const filter = listFilter(scope, params);
  if (!filter) {
    return NO_COUNTS;
  }
  const [row] = await countConversations(scope.deps.db, filter, callerUserId(scope.actor));
  return toCounts(row);
}

/** A contact's conversations that the caller may see, most recent first; 404 for others'. */
export async function conversationsOfContact(
  scope: ConversationScope,
  contactId: number,
): Promise<ConversationRow[]> {
  if (!(await findContact(scope.deps.db, scope.account.id, contactId))) {
    throw new ApiError("not_found");
  }
  const filter: ListFilter = {
    accountId: scope.account.id,
    viewer: viewerOf(scope),
    contactId,
  };
  return pageConversations(scope.deps.db, filter, {
    sort: "last_activity_at_desc",
    limit: CONTACT_CONVERSATIONS_LIMIT,
    offset: 0,
  });
}

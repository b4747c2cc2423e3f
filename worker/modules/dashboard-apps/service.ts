import type { DashboardAppRow } from "../../db/schema";
import type { Deps } from "../../events/deps";
import { ApiError, invalidField, invalidFields } from "../../lib/errors";
import { mailBaseUrl } from "../../lib/public-url";
import {
  countDashboardApps,
  deleteDashboardApp as deleteRow,
  findDashboardApp,
  insertDashboardApp,
  type NewDashboardApp,
  updateDashboardApp as updateRow,
} from "./queries";
import { type DashboardAppCreate, type DashboardAppUpdate, MAX_DASHBOARD_APPS } from "./schema";

export async function loadDashboardApp(
  deps: Deps,
  accountId: number,
  id: number,
): Promise<DashboardAppRow> {
  const row = await findDashboardApp(deps.db, accountId, id);
  if (!row) {
    throw new ApiError("not_found");
  }
  return row;
}

const originOf = (url: string | null | undefined) => {
  try {
    return url ? new URL(url).origin : null;
  } catch {
    return null;
  }
};

/**
 * No frame on this service's own origin (the request's or PUBLIC_URL's): the agents' app lets a
 * frame keep its own origin (a signed-in CRM needs its cookies), and a page of the app's origin
 * could then reach the agent's session.
 */
function checkOrigins(deps: Deps, content: DashboardAppCreate["content"] | undefined) {
  const own = new Set(
    [originOf(deps.origin), originOf(mailBaseUrl(deps.env.PUBLIC_URL))].filter(
      (o): o is string => o !== null,
    ),
  );
  const problems = (content ?? []).flatMap((frame, i) =>
    own.has(new URL(frame.url).origin)
      ? [{ path: `content.${i}.url`, message: "must not be on this service's own address" }]
      : [],
  );
  if (problems.length > 0) {
    throw invalidFields(problems);
  }
}

const frames = (content: DashboardAppCreate["content"]) =>
  content.map((f) => ({ type: "frame" as const, url: f.url }));

/** Chatwoot: any administrator adds one for the whole account; its creator is recorded. */
export async function createDashboardApp(
  deps: Deps,
  accountId: number,
  userId: number,
  input: DashboardAppCreate,
): Promise<DashboardAppRow> {
  checkOrigins(deps, input.content);
  if ((await countDashboardApps(deps.db, accountId)) >= MAX_DASHBOARD_APPS) {
    throw invalidField(
      "title",
      `an account holds at most ${MAX_DASHBOARD_APPS} dashboard apps`,
      `An account holds at most ${MAX_DASHBOARD_APPS} dashboard apps`,
    );
  }
  const now = deps.now();
  const [row] = await insertDashboardApp(deps.db, {
    accountId,
    userId,
    title: input.title,
    content: frames(input.content),
    createdAt: now,
    updatedAt: now,
  });
  if (!row) {
    throw new ApiError("internal_error");
  }
  return row;
}

/** Omitted fields stay; a given content replaces the frames. */
export async function updateDashboardApp(
  deps: Deps,
  current: DashboardAppRow,
  input: DashboardAppUpdate,
): Promise<DashboardAppRow> {
  checkOrigins(deps, input.content);
  const values: Partial<NewDashboardApp> = { updatedAt: deps.now() };
  if (input.title !== undefined) {
    values.title = input.title;
  }
  if (input.content !== undefined) {
    values.content = frames(input.content);
  }
  const [row] = await updateRow(deps.db, current.accountId, current.id, values);
  return row ?? current;
}

export async function deleteDashboardApp(deps: Deps, row: DashboardAppRow): Promise<void> {
  await deleteRow(deps.db, row.accountId, row.id);
}

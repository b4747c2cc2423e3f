import type { InboxRow, PortalRow } from "../../db/schema";
import type { Deps } from "../../events/deps";
import { isUniqueViolation } from "../../lib/db-errors";
import { ApiError, invalidField } from "../../lib/errors";
import { deleteStored, IMAGE_TYPES, storeUpload } from "../files/storage";
import { emptyStats, type PortalStats, presentPortal } from "./presenter";
import {
  articleCounts,
  categoryCounts,
  deletePortalStatements,
  findPortalBySlug,
  findWidgetInbox,
  inboxesById,
  insertPortal,
  type NewPortal,
  portalSlugsLike,
  portalWithSlug,
  updatePortal as updatePortalRow,
} from "./queries.portals";
import type { PortalCreate, PortalJson, PortalUpdate } from "./schema.portals";
import { domainClaim } from "./service.domains";
import { firstFreeSlug, slugify } from "./slug";

export async function loadPortal(deps: Deps, accountId: number, slug: string): Promise<PortalRow> {
  const portal = await findPortalBySlug(deps.db, accountId, slug);
  if (!portal) {
    throw new ApiError("not_found");
  }
  return portal;
}

async function statsOf(deps: Deps, ids: number[], callerId: number | null) {
  const [articles, categories] = await Promise.all([
    articleCounts(deps.db, ids),
    categoryCounts(deps.db, ids),
  ]);
  const stats = new Map<number, PortalStats>(ids.map((id) => [id, emptyStats()]));
  const locale = (s: PortalStats, code: string) => {
    const entry = s.locales.get(code) ?? { articles: 0, categories: 0 };
    s.locales.set(code, entry);
    return entry;
  };
  for (const r of articles) {
    const s = stats.get(r.portalId);
    if (!s) {
      continue;
    }
    locale(s, r.locale).articles += r.n;
    const status = r.status === 1 || r.status === 2 ? r.status : 0;
    s.byStatus[status] += r.n;
    if (callerId !== null && r.authorId === callerId) {
      s.mine += r.n;
    }
  }
  for (const r of categories) {
    const s = stats.get(r.portalId);
    if (!s) {
      continue;
    }
    locale(s, r.locale).categories += r.n;
    s.categories += r.n;
  }
  return stats;
}

/** Portal records with their counts and linked inboxes, in three reads whatever the number. */
export async function presentPortals(
  deps: Deps,
  rows: PortalRow[],
  callerId: number | null,
): Promise<PortalJson[]> {
  const inboxIds = [...new Set(rows.flatMap((r) => (r.inboxId === null ? [] : [r.inboxId])))];
  const [stats, inboxRows] = await Promise.all([
    statsOf(
      deps,
      rows.map((r) => r.id),
      callerId,
    ),
    inboxesById(deps.db, inboxIds),
  ]);
  const inboxes = new Map<number, InboxRow>(inboxRows.map((i) => [i.id, i]));
  return rows.map((row) =>
    presentPortal(row, {
      stats: stats.get(row.id) ?? emptyStats(),
      inbox: row.inboxId === null ? null : (inboxes.get(row.inboxId) ?? null),
      origin: deps.origin,
    }),
  );
}

export async function presentOnePortal(deps: Deps, row: PortalRow, callerId: number | null) {
  const [json] = await presentPortals(deps, [row], callerId);
  if (!json) {
    throw new ApiError("internal_error");
  }
  return json;
}

const taken = (field: string) => invalidField(field, "has already been taken");

async function portalValues(
  deps: Deps,
  accountId: number,
  current: PortalRow | null,
  input: PortalUpdate,
): Promise<Partial<NewPortal>> {
  const exceptId = current?.id ?? 0;
  const values: Partial<NewPortal> = {};
  if (input.name !== undefined) {
    values.name = input.name;
  }
  if (input.slug) {
    if (await portalWithSlug(deps.db, input.slug, exceptId)) {
      throw taken("slug");
    }
    values.slug = input.slug;
  } else if (!current) {
    // Blank or absent on create: made from the name, free across the service. (A blank slug
    // on update keeps the current one: links to the portal stay valid.)
    const base = slugify(input.name ?? "", "portal");
    values.slug = firstFreeSlug(base, await portalSlugsLike(deps.db, base));
  }
  if (input.custom_domain !== undefined) {
    // A claim, not a reservation: another account's pending claim never blocks it.
    Object.assign(values, domainClaim(deps, current, input.custom_domain));
  }
  if (input.color !== undefined) {
    values.color = input.color;
  }
  if (input.header_text !== undefined) {
    values.headerText = input.header_text || null;
  }
  if (input.homepage_link !== undefined) {
    values.homepageLink = input.homepage_link;
  }
  if (input.page_title !== undefined) {
    values.pageTitle = input.page_title || null;
  }
  if (input.archived !== undefined) {
    values.archived = input.archived;
  }
  if (input.config) {
    const allowed = [...new Set(input.config.allowed_locales ?? current?.allowedLocales ?? ["en"])];
    const fallback =
      current && allowed.includes(current.defaultLocale) ? current.defaultLocale : allowed[0];
    const defaultLocale = input.config.default_locale ?? fallback ?? "en";
    if (!allowed.includes(defaultLocale)) {
      throw invalidField("config.default_locale", "must be one of config.allowed_locales");
    }
    values.allowedLocales = allowed;
    values.defaultLocale = defaultLocale;
  }
  if (input.inbox_id !== undefined) {
    if (input.inbox_id !== null) {
      const inbox = await findWidgetInbox(deps.db, accountId, input.inbox_id);
      if (inbox?.channelType !== "Channel::WebWidget") {
        throw invalidField("inbox_id", "must be a web widget inbox of this account");
      }
    }
    values.inboxId = input.inbox_id;
  }
  return values;
}

/** The unique index backs the slug check above: a race still ends in a 422, never a 500. */
function raceToField(err: unknown): never {
  if (isUniqueViolation(err)) {
    throw taken("slug");
  }
  throw err;
}

export async function createPortal(deps: Deps, accountId: number, input: PortalCreate) {
  const values = await portalValues(deps, accountId, null, input);
  try {
    const [row] = await insertPortal(deps.db, {
      ...values,
      name: input.name,
      slug: values.slug ?? "portal",
      accountId,
    });
    if (!row) {
      throw new ApiError("internal_error");
    }
    return row;
  } catch (err) {
    raceToField(err);
  }
}

export async function updatePortal(deps: Deps, portal: PortalRow, input: PortalUpdate) {
  const values = await portalValues(deps, portal.accountId, portal, input);
  try {
    const [row] = await updatePortalRow(deps.db, portal.id, { ...values, updatedAt: deps.now() });
    return row ?? portal;
  } catch (err) {
    raceToField(err);
  }
}

export async function deletePortal(deps: Deps, portal: PortalRow) {
  await deps.db.batch(deletePortalStatements(deps.db, portal.id));
  if (portal.logoKey) {
    await deleteStored(deps.env, [portal.logoKey]);
  }
}

export async function setPortalLogo(deps: Deps, portal: PortalRow, file: File) {
  const stored = await storeUpload(deps.env, portal.accountId, "portal-logos", file, {
    field: "logo",
    allowedTypes: IMAGE_TYPES,
  });
  const [row] = await updatePortalRow(deps.db, portal.id, {
    logoKey: stored.key,
    logoFilename: stored.fileName,
    logoContentType: stored.contentType,
    updatedAt: deps.now(),
  });
  if (portal.logoKey) {
    await deleteStored(deps.env, [portal.logoKey]);
  }
  return row ?? portal;
}

export async function removePortalLogo(deps: Deps, portal: PortalRow) {
  const [row] = await updatePortalRow(deps.db, portal.id, {
    logoKey: null,
    logoFilename: null,
    logoContentType: null,
    updatedAt: deps.now(),
  });
  if (portal.logoKey) {
    await deleteStored(deps.env, [portal.logoKey]);
  }
  return row ?? portal;
}

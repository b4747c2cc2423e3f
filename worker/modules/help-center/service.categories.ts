import type { HelpCategoryRow, PortalRow } from "../../db/schema";
import type { Deps } from "../../events/deps";
import { ApiError, invalidField } from "../../lib/errors";
import { presentCategory } from "./presenter";
import {
  categoryArticleCounts,
  categorySlugsLike,
  categoryWithSlug,
  deleteCategoryStatements,
  findCategory,
  insertCategory,
  type NewCategory,
  portalCategories,
  updateCategory as updateCategoryRow,
} from "./queries.categories";
import { bumpPortal } from "./queries.portals";
import type { CategoryCreate, CategoryJson, CategoryUpdate } from "./schema.categories";
import { inserted, writeBumping } from "./service.write";
import { firstFreeSlug, slugify } from "./slug";

export async function loadCategory(deps: Deps, portal: PortalRow, id: number) {
  const row = await findCategory(deps.db, portal.id, id);
  if (!row) {
    throw new ApiError("not_found");
  }
  return row;
}

/** The same category in other locales: linked through associated_category_id either way. */
export function linkedTo(row: HelpCategoryRow, all: HelpCategoryRow[]) {
  const group = row.associatedCategoryId;
  return all.filter(
    (c) =>
      c.id !== row.id &&
      (c.associatedCategoryId === row.id ||
        c.id === group ||
        (group !== null && c.associatedCategoryId === group)),
  );
}

export async function presentCategories(
  deps: Deps,
  portal: PortalRow,
  rows: HelpCategoryRow[],
): Promise<CategoryJson[]> {
  const [all, counts] = await Promise.all([
    portalCategories(deps.db, portal.id),
    categoryArticleCounts(deps.db, portal.id),
  ]);
  const byId = new Map(all.map((c) => [c.id, c]));
  const articles = new Map(counts.map((c) => [c.categoryId, c.n]));
  return rows.map((row) =>
    presentCategory(row, {
      parent: row.parentCategoryId === null ? null : (byId.get(row.parentCategoryId) ?? null),
      linked: linkedTo(row, all),
      articles: articles.get(row.id) ?? 0,
    }),
  );
}

export async function presentOneCategory(deps: Deps, portal: PortalRow, row: HelpCategoryRow) {
  const [json] = await presentCategories(deps, portal, [row]);
  if (!json) {
    throw new ApiError("internal_error");
  }
  return json;
}

export async function listCategories(deps: Deps, portal: PortalRow, locale?: string) {
  const all = await portalCategories(deps.db, portal.id);
  return locale ? all.filter((c) => c.locale === locale) : all;
}

export function checkLocale(portal: PortalRow, locale: string) {
  if (!portal.allowedLocales.includes(locale)) {
    throw invalidField(
      "locale",
      `must be one of the portal's locales (${portal.allowedLocales.join(", ")})`,
    );
  }
}

async function categoryValues(
  deps: Deps,
  portal: PortalRow,
  current: HelpCategoryRow | null,
  input: CategoryUpdate,
): Promise<Partial<NewCategory>> {
  const values: Partial<NewCategory> = {};
  const locale = input.locale ?? current?.locale ?? portal.defaultLocale;
  if (input.locale !== undefined || !current) {
    checkLocale(portal, locale);
    values.locale = locale;
  }
  const exceptId = current?.id ?? 0;
  if (input.slug) {
    if (await categoryWithSlug(deps.db, portal.id, locale, input.slug, exceptId)) {
      throw invalidField("slug", "has already been taken");
    }
    values.slug = input.slug;
  } else if (!current || (input.locale !== undefined && input.locale !== current.locale)) {
    const base = slugify(input.name ?? current?.name ?? "", "category");
    values.slug = firstFreeSlug(base, await categorySlugsLike(deps.db, portal.id, locale, base));
  }
  if (input.name !== undefined) {
    values.name = input.name;
  }
  if (input.description !== undefined) {
    values.description = input.description || null;
  }
  if (input.icon !== undefined) {
    values.icon = input.icon || null;
  }
  if (input.position !== undefined) {
    values.position = input.position;
  }
  for (const [field, key] of [
    ["parent_category_id", "parentCategoryId"],
    ["associated_category_id", "associatedCategoryId"],
  ] as const) {
    const id = input[field];
    if (id === undefined) {
      continue;
    }
    if (id !== null) {
      if (id === current?.id) {
        throw invalidField(field, "must name another category");
      }
      const other = await findCategory(deps.db, portal.id, id);
      if (!other) {
        throw invalidField(field, "must be a category of this portal");
      }
      if (
        field === "parent_category_id" &&
        current &&
        (await isDescendant(deps, portal, other, current.id))
      ) {
        throw invalidField(field, "must not be one of the category's own subcategories");
      }
    }
    values[key] = id;
  }
  return values;
}

async function isDescendant(
  deps: Deps,
  portal: PortalRow,
  start: HelpCategoryRow,
  ancestorId: number,
) {
  const all = new Map((await portalCategories(deps.db, portal.id)).map((c) => [c.id, c]));
  const seen = new Set<number>();
  for (let c: HelpCategoryRow | undefined = start; c && !seen.has(c.id); ) {
    if (c.id === ancestorId) {
      return true;
    }
    seen.add(c.id);
    c = c.parentCategoryId === null ? undefined : all.get(c.parentCategoryId);
  }
  return false;
}

export async function createCategory(deps: Deps, portal: PortalRow, input: CategoryCreate) {
  const values = await categoryValues(deps, portal, null, input);
  const insert = insertCategory(deps.db, {
    ...values,
    name: input.name,
    slug: values.slug ?? "category",
    locale: values.locale ?? portal.defaultLocale,
    portalId: portal.id,
    accountId: portal.accountId,
  });
  return inserted(await writeBumping(deps, portal.id, insert));
}

export async function updateCategory(
  deps: Deps,
  portal: PortalRow,
  category: HelpCategoryRow,
  input: CategoryUpdate,
) {
  const values = await categoryValues(deps, portal, category, input);
  const update = updateCategoryRow(deps.db, category.id, { ...values, updatedAt: deps.now() });
  return (await writeBumping(deps, portal.id, update)) ?? category;
}

export async function deleteCategory(deps: Deps, portal: PortalRow, category: HelpCategoryRow) {
  await deps.db.batch([
    ...deleteCategoryStatements(deps.db, category.id),
    bumpPortal(deps.db, portal.id, deps.now()),
  ]);
}

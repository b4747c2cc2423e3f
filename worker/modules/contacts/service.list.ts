import type { ContactRow } from "../../db/schema";
import type { Deps } from "../../events/deps";
import { invalidField } from "../../lib/errors";
import { listDefinitions } from "../custom-attributes/queries";
import { compileFilter } from "../filters/compile";
import { contactFilterFields } from "../filters/contact-fields";
import {
  type ContactInboxWithInbox,
  type ContactSort,
  type ContactWhere,
  contactConditions,
  contactInboxesOf,
  contactPage,
} from "./queries";
import type { SortKey } from "./schema";

/** Chatwoot's RESULTS_PER_PAGE for contacts. */
export const CONTACTS_PAGE_SIZE = 15;

/** Most recently active first; never-active contacts last, newest first. */
export const DEFAULT_SORT: ContactSort = { key: "last_activity_at", descending: true };

export type ContactPage = {
  rows: ContactRow[];
  total: number;
  inboxes: ContactInboxWithInbox[];
  /** The page as sent, echoed in meta.current_page. */
  currentPage: string | number;
};

export type PageRequest = { page?: string | number; sort?: string; labels?: string[] };

export const parseSort = (sort: string | undefined): ContactSort =>
  sort
    ? { key: sort.replace(/^-/, "") as SortKey, descending: sort.startsWith("-") }
    : DEFAULT_SORT;

async function page(
  deps: Deps,
  accountId: number,
  request: PageRequest,
  where: ContactWhere,
): Promise<ContactPage> {
  const currentPage = request.page ?? 1;
  const offset = (Number(currentPage) - 1) * CONTACTS_PAGE_SIZE;
  const sort = parseSort(request.sort);
  const { rows, total } = await contactPage(
    deps.db,
    accountId,
    where,
    sort,
    CONTACTS_PAGE_SIZE,
    offset,
  );
  const inboxes = await contactInboxesOf(
    deps.db,
    rows.map((r) => r.id),
  );
  return { rows, total, inboxes, currentPage };
}

function labelTitles(labels: string[] | undefined) {
  const titles = [...new Set((labels ?? []).map((l) => l.trim().toLowerCase()).filter(Boolean))];
  if (titles.length > 50) {
    throw invalidField("labels", "at most 50 labels", "labels: at most 50");
  }
  return titles;
}

/**
 * Chatwoot parity: only "resolved" contacts (with an email, a phone number or an identifier)
 * are listed, searched and filtered; `labels` keeps contacts tagged with any of them.
 */
export const listContacts = (deps: Deps, accountId: number, request: PageRequest) =>
  page(deps, accountId, request, contactConditions({ labels: labelTitles(request.labels) }));

export function searchContacts(
  deps: Deps,
  accountId: number,
  q: string | undefined,
  request: PageRequest,
) {
  if (!q) {
    throw invalidField("q", "is required", "Specify search string with parameter q");
  }
  const where = contactConditions({ search: q, labels: labelTitles(request.labels) });
  return page(deps, accountId, request, where);
}

/** Custom attribute definitions are read only when a condition names a non-standard key. */
async function definitionsFor(deps: Deps, accountId: number, payload: unknown[]) {
  const custom = payload.some((c) => {
    const key = (c as { attribute_key?: unknown } | null)?.attribute_key;
    return typeof key !== "string" || !Object.hasOwn(contactFilterFields.fields, key);
  });
  return custom ? listDefinitions(deps.db, accountId, "contact_attribute") : [];
}

export async function filterContacts(
  deps: Deps,
  accountId: number,
  payload: unknown[],
  request: PageRequest,
) {
  const definitions = await definitionsFor(deps, accountId, payload);
  const where = compileFilter(payload, contactFilterFields, definitions, {
    nowMs: deps.now() * 1000,
  });
  return page(deps, accountId, request, where);
}

import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import type { InboxRow } from "../../db/schema";
import { accountUsers, inboxes, inboxMembers, portals, users } from "../../db/schema";
import { AVAILABILITY_STATUS } from "../agents/presence";

/** The public API addresses an inbox by its inbox_identifier (both channel kinds). */
export const findInboxByIdentifier = (db: Db, identifier: string) =>
  db.select().from(inboxes).where(eq(inboxes.inboxIdentifier, identifier)).get();

export const findInboxById = (db: Db, id: number) =>
  db.select().from(inboxes).where(eq(inboxes.id, id)).get();

/** How many of an inbox's agents the widget may show (it draws three). */
export const PUBLIC_AGENTS_LIMIT = 5;

/**
 * The inbox's members still in its account, online first: only what a visitor may see of them.
 * The join on the inbox's own account keeps a member who left the account out.
 */
const publicAgents = (db: Db, inbox: InboxRow) =>
  db
    .select({
      name: users.name,
      displayName: users.displayName,
      avatarUrl: users.avatarUrl,
      availability: AVAILABILITY_STATUS,
    })
    .from(inboxMembers)
    .innerJoin(users, eq(users.id, inboxMembers.userId))
    .innerJoin(
      accountUsers,
      and(eq(accountUsers.userId, users.id), eq(accountUsers.accountId, inbox.accountId)),
    )
    .where(eq(inboxMembers.inboxId, inbox.id))
    .orderBy(
      sql`case ${AVAILABILITY_STATUS} when 'online' then 0 when 'busy' then 1 else 2 end`,
      asc(inboxMembers.id),
    )
    .limit(PUBLIC_AGENTS_LIMIT);

/**
 * The live (not archived) help-center portal linked to the inbox, the oldest if several, with
 * the allowed locales that have a published article (status 1), as the help center offers
 * them: a visitor whose language has none would otherwise get an empty article list. The
 * columns are named with their table: drizzle writes them bare, and inside the subquery a bare
 * "id" is the article's.
 */
const linkedPortal = (db: Db, inbox: InboxRow) =>
  db
    .select({
      slug: portals.slug,
      defaultLocale: portals.defaultLocale,
      liveLocales: sql<string>`(SELECT json_group_array(l.value) FROM json_each("portals"."allowed_locales") l WHERE EXISTS (SELECT 1 FROM help_articles a WHERE a.portal_id = "portals"."id" AND a.status = 1 AND a.locale = l.value))`,
    })
    .from(portals)
    .where(
      and(
        eq(portals.inboxId, inbox.id),
        eq(portals.accountId, inbox.accountId),
        eq(portals.archived, false),
      ),
    )
    .orderBy(asc(portals.id))
    .limit(1);

/** What the public inbox record adds to the inbox row: its agents and portal, one round trip. */
export async function publicInboxExtras(db: Db, inbox: InboxRow) {
  const [agents, [linked]] = await db.batch([publicAgents(db, inbox), linkedPortal(db, inbox)]);
  const portal = linked && {
    slug: linked.slug,
    defaultLocale: linked.defaultLocale,
    liveLocales: JSON.parse(linked.liveLocales) as string[],
  };
  return { agents, portal };
}

export type PublicInboxExtras = Awaited<ReturnType<typeof publicInboxExtras>>;

import { and, asc, eq, isNull, ne, or } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../../db/client";
import type { WebhookRow } from "../../db/schema";
import { agentBotInboxes, agentBots, inboxes, webhookDeliveries, webhooks } from "../../db/schema";

// Deliveries have their own file; this is what other modules write deliveries with.
export { writeDeliveries } from "./queries.deliveries";

export type NewWebhook = typeof webhooks.$inferInsert;
/** A webhook with the name of the inbox it is limited to. */
export type WebhookWithInbox = { webhook: WebhookRow; inboxName: string | null };

const withInbox = (db: Db) =>
  db
    .select({ webhook: webhooks, inboxName: inboxes.name })
    .from(webhooks)
    .leftJoin(inboxes, eq(inboxes.id, webhooks.inboxId));

export const listWebhooks = (db: Db, accountId: number): Promise<WebhookWithInbox[]> =>
  withInbox(db).where(eq(webhooks.accountId, accountId)).orderBy(asc(webhooks.id)).all();

export const findWebhook = (db: Db, accountId: number, id: number) =>
  withInbox(db)
    .where(and(eq(webhooks.accountId, accountId), eq(webhooks.id, id)))
    .get();

export const findWebhookByUrl = (db: Db, accountId: number, url: string, exceptId = 0) =>
  db
    .select({ id: webhooks.id })
    .from(webhooks)
    .where(and(eq(webhooks.accountId, accountId), eq(webhooks.url, url), ne(webhooks.id, exceptId)))
    .get();

export const insertWebhook = (db: Db, values: NewWebhook) =>
  db.insert(webhooks).values(values).returning();

export const updateWebhookRow = (db: Db, id: number, values: Partial<NewWebhook>) =>
  db.update(webhooks).set(values).where(eq(webhooks.id, id)).returning();

/** The webhook and its delivery log go together (with `also`, e.g. the audit row). */
export const deleteWebhookRow = (db: Db, id: number, also: BatchItem<"sqlite">[] = []) =>
  db.batch([
    db
      .delete(webhookDeliveries)
      .where(and(eq(webhookDeliveries.targetType, "webhook"), eq(webhookDeliveries.targetId, id))),
    db.delete(webhooks).where(eq(webhooks.id, id)),
    ...also,
  ]);

export const disableWebhook = (db: Db, id: number, at: number) =>
  db.update(webhooks).set({ disabledAt: at, updatedAt: at }).where(eq(webhooks.id, id));

// --- targets of an event ----------------------------------------------------------------------

/** The account's enabled webhooks that may get an event of `inboxId` (subscriptions aside). */
export const webhooksReaching = (db: Db, accountId: number, inboxId: number | null) =>
  db
    .select()
    .from(webhooks)
    .where(
      and(
        eq(webhooks.accountId, accountId),
        isNull(webhooks.disabledAt),
        inboxId === null
          ? isNull(webhooks.inboxId)
          : or(isNull(webhooks.inboxId), eq(webhooks.inboxId, inboxId)),
      ),
    );

/** Who may receive an event of an inbox: the account's webhooks, the inbox, its active bot. */
export async function receiversOf(db: Db, accountId: number, inboxId: number | null) {
  const hooks = webhooksReaching(db, accountId, inboxId);
  if (inboxId === null) {
    return { hooks: await hooks, inbox: undefined, bot: undefined };
  }
  const [hookRows, [inbox], [link]] = await db.batch([
    hooks,
    db.select().from(inboxes).where(eq(inboxes.id, inboxId)),
    db
      .select({ bot: agentBots })
      .from(agentBotInboxes)
      .innerJoin(agentBots, eq(agentBots.id, agentBotInboxes.agentBotId))
      .where(and(eq(agentBotInboxes.inboxId, inboxId), eq(agentBotInboxes.status, "active"))),
  ]);
  return { hooks: hookRows, inbox, bot: link?.bot };
}

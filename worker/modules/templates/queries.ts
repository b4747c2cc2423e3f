import { and, count, eq, gt, gte, inArray } from "drizzle-orm";
import type { Db } from "../../db/client";
import { messages } from "../../db/schema";

/** messages.message_type codes (Chatwoot's): incoming 0, outgoing 1, activity 2, template 3. */
const OUTGOING = 1;
const TEMPLATE = 3;

/** The conversation's messages of these types since `since` (seconds; 0: ever), by the index. */
const countOf = (
  db: Db,
  conversationId: number,
  types: number[],
  since: number,
  publicOnly = false,
) =>
  db
    .select({ n: count() })
    .from(messages)
    .where(
      and(
        eq(messages.conversationId, conversationId),
        inArray(messages.messageType, types),
        since > 0 ? gte(messages.createdAt, since) : undefined,
        publicOnly ? eq(messages.private, false) : undefined,
      ),
    )
    .get()
    .then((r) => r?.n ?? 0);

/** Chatwoot's first_message_from_contact?: no outgoing and no template message yet. */
export const hasRepliesOrTemplates = async (db: Db, conversationId: number) =>
  (await countOf(db, conversationId, [OUTGOING, TEMPLATE], 0)) > 0;

/** An agent's (or bot's) public reply since `since`. */
export const repliedSince = async (db: Db, conversationId: number, since: number) =>
  (await countOf(db, conversationId, [OUTGOING], since + 1, true)) > 0;

/** A template message since `since` (Chatwoot's messages.today.template). */
export const templateSince = async (db: Db, conversationId: number, since: number) =>
  (await countOf(db, conversationId, [TEMPLATE], since)) > 0;

/** Whether the conversation already asked for the email (an input_email message). */
export const emailAsked = (db: Db, conversationId: number) =>
  db
    .select({ id: messages.id })
    .from(messages)
    .where(
      and(
        eq(messages.conversationId, conversationId),
        eq(messages.contentType, "input_email"),
        gt(messages.id, 0),
      ),
    )
    .get()
    .then((r) => r !== undefined);

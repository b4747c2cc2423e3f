import type { Db } from "../../db/client";
import type { ContactInboxRow, ContactRow, ConversationRow, MessageRow } from "../../db/schema";
import { presentContactForSession } from "../contacts/presenter.public";
import { contactLabelTitles } from "../contacts/queries";
import { presentPublicMessage } from "../messages/presenter";
import type { PublicMessage } from "../messages/schema";
import { loadMessageExtras, senderKey } from "../messages/senders";
import { presentPublicConversation } from "./presenter";
import { latestPublicMessages } from "./queries.public";
import type { PublicConversation } from "./schema.public";

/** Messages embedded in a public conversation (Chatwoot embeds them all; we keep the latest). */
export const EMBEDDED_MESSAGES = 20;

export type PublicView = { db: Db; origin: string };

/**
 * Public messages of one or more conversations, with batched sender and attachment loads.
 * `displayIds` maps each conversation's internal id to its display_id. Rows must already be
 * non-private (the public queries never return private notes).
 */
export async function presentPublicMessages(
  view: PublicView,
  rows: MessageRow[],
  displayIds: Map<number, number>,
): Promise<PublicMessage[]> {
  const { senders, files } = await loadMessageExtras(view.db, rows);
  return rows.map((row) => {
    const key = senderKey(row);
    return presentPublicMessage(row, displayIds.get(row.conversationId) ?? 0, {
      sender: key ? (senders.get(key) ?? null) : null,
      attachments: files.get(row.id) ?? [],
      origin: view.origin,
    });
  });
}

/** The contact session a public view is for: its contact is shown as that session sees it. */
export type ViewingSession = { contact: ContactRow; contactInbox: ContactInboxRow };

/** Public conversations of one contact, each with its latest non-private messages. */
export async function presentPublicConversations(
  view: PublicView,
  rows: ConversationRow[],
  session: ViewingSession,
): Promise<PublicConversation[]> {
  const contactRow = session.contact;
  const [latest, labels] = await Promise.all([
    latestPublicMessages(
      view.db,
      rows.map((r) => r.id),
      EMBEDDED_MESSAGES,
    ),
    contactLabelTitles(view.db, contactRow.id),
  ]);
  const contact = presentContactForSession(contactRow, labels, session.contactInbox);
  const displayIds = new Map(rows.map((r) => [r.id, r.displayId]));
  const presented = await presentPublicMessages(view, latest, displayIds);
  const byConversation = new Map<number, PublicMessage[]>();
  latest.forEach((row, i) => {
    const list = byConversation.get(row.conversationId) ?? [];
    list.push(presented[i] as PublicMessage);
    byConversation.set(row.conversationId, list);
  });
  return rows.map((row) =>
    presentPublicConversation(row, byConversation.get(row.id) ?? [], contact),
  );
}

export async function presentPublicOne(
  view: PublicView,
  row: ConversationRow,
  session: ViewingSession,
): Promise<PublicConversation> {
  const [one] = await presentPublicConversations(view, [row], session);
  if (!one) {
    throw new Error("conversation not presented");
  }
  return one;
}

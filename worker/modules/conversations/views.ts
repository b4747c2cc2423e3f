import type { Db } from "../../db/client";
import type { ConversationRow } from "../../db/schema";
import type { MessageConversationContext } from "../messages/presenter";
import { rowAndNewest } from "../messages/queries.tail";
import { beyond, readTail, type TailEntry, touchedBy, unseenIn } from "../messages/tail";
import { MESSAGE_TYPE_CODES } from "../messages/types";
import { presentMessages } from "../messages/views";
import type { ConversationWebhook } from "../webhooks/schema.payloads";
import type { ConversationScope } from "./access";
import {
  type ConversationParts,
  presentConversation,
  presentConversationWebhook,
} from "./presenter";
import { type LastMessageOf, loadRelated, type Related } from "./queries.related";
import type { ConversationJson } from "./schema";

export type ViewContext = {
  db: Db;
  accountId: number;
  callerUserId: number | null;
  origin: string;
};

/**
 * Who reads a conversation's webhook data: agents' receivers (account webhooks, agent bots,
 * automation's send_webhook_event) or the contact's side (an API inbox's webhook_url relays to
 * the customer), which never sees a private note, not even as the last message.
 */
export type WebhookAudience = LastMessageOf;

/** Everything presenting `rows` needs, loaded with a fixed number of queries. */
async function loadParts(
  view: ViewContext,
  rows: ConversationRow[],
  audience: WebhookAudience = "agents",
  tails?: Map<number, TailEntry[]>,
): Promise<ConversationParts[]> {
  const related = await loadRelated(view.db, view.accountId, rows, view.callerUserId, audience);
  for (const [id, tail] of tails ?? []) {
    withTail(related, rows.find((r) => r.id === id) as ConversationRow, tail);
  }
  const contexts = new Map<number, MessageConversationContext>();
  for (const row of rows) {
    const contactInbox = row.contactInboxId ? related.contactInboxes.get(row.contactInboxId) : null;
    contexts.set(row.id, {
      displayId: row.displayId,
      assigneeId: row.assigneeId,
      unreadCount: related.unread.get(row.id) ?? 0,
      lastActivityAt: row.lastActivityAt,
      sourceId: contactInbox?.sourceId ?? null,
    });
  }
  const lastRows = [...related.lastMessages.values()];
  const presented = await presentMessages(view.db, lastRows, contexts, view.origin);
  const lastMessages = new Map(lastRows.map((m, i) => [m.conversationId, presented[i] ?? null]));
  return rows.map((row) => {
    const contact = related.contacts.get(row.contactId);
    if (!contact) {
      throw new Error(`conversation ${row.id} has no contact`);
    }
    const team = row.teamId ? (related.teams.get(row.teamId) ?? null) : null;
    return {
      contact,
      contactInbox: row.contactInboxId
        ? (related.contactInboxes.get(row.contactInboxId) ?? null)
        : null,
      channelType: related.channels.get(row.inboxId) ?? "Channel::Api",
      assignee: row.assigneeId ? (related.assignees.get(row.assigneeId) ?? null) : null,
      team,
      callerInTeam: team !== null && related.callerTeamIds.has(team.id),
      labels: related.labels.get(row.id) ?? [],
      lastMessage: lastMessages.get(row.id) ?? null,
      unreadCount: related.unread.get(row.id) ?? 0,
    };
  });
}

/**
 * The room's tail (read before `related`) into the last message and unread count: D1 has every
 * non-activity message up to its last one's seq, so the tail's messages past it are D1's lack.
 */
function withTail(related: Related, row: ConversationRow, tail: TailEntry[]): void {
  const fresh = beyond(tail, related.lastMessages.get(row.id)?.seq ?? 0);
  const last = fresh.filter((e) => e.row.messageType !== MESSAGE_TYPE_CODES.activity).at(-1);
  if (last) {
    related.lastMessages.set(row.id, last.row);
  }
  related.unread.set(row.id, (related.unread.get(row.id) ?? 0) + unseenIn(row, fresh));
}

/**
 * One conversation as it is now, for its caller (read your writes, messages/tail.ts): the room's
 * tail first, then the row again with D1's newest seq, its clocks moved by the tail past it.
 */
export async function presentCurrent(
  scope: ConversationScope,
  view: ViewContext,
  found: ConversationRow,
): Promise<ConversationJson> {
  const tail = await readTail(scope, found);
  const { row, newest } = await rowAndNewest(view.db, found.id);
  const current = touchedBy(row ?? found, beyond(tail, newest));
  const [parts] = await loadParts(view, [current], "agents", new Map([[found.id, tail]]));
  return presentConversation(current, parts as ConversationParts);
}

/** Presents conversation rows (a page at most) with a fixed number of queries. */
export async function presentConversations(
  view: ViewContext,
  rows: ConversationRow[],
): Promise<ConversationJson[]> {
  if (rows.length === 0) {
    return [];
  }
  const parts = await loadParts(view, rows);
  return rows.map((row, i) => presentConversation(row, parts[i] as ConversationParts));
}

/** The conversation's webhook data (nested in every conversation and message event). */
export async function conversationWebhookData(
  db: Db,
  row: ConversationRow,
  origin: string,
  audience: WebhookAudience = "agents",
): Promise<ConversationWebhook> {
  const view = { db, accountId: row.accountId, callerUserId: null, origin };
  const [parts] = await loadParts(view, [row], audience);
  return presentConversationWebhook(row, parts as ConversationParts);
}

export async function presentOne(
  view: ViewContext,
  row: ConversationRow,
): Promise<ConversationJson> {
  const [one] = await presentConversations(view, [row]);
  if (!one) {
    throw new Error("conversation not presented");
  }
  return one;
}

import type { ConversationRow, InboxRow } from "../../db/schema";
import { createDeps } from "../../events/deps";
import type { AsyncListener } from "../../events/outbox-types";
import { findContact } from "../contacts/queries";
import type { ConversationScope } from "../conversations/access";
import { createMessage } from "../messages/service";
import { openIntervals, wallClock, zonedToUtc } from "../reports/hours";
import {
  batchAccount,
  batchInbox,
  eventConversation,
  eventMessage,
} from "../webhooks/queries.batch";
import { emailAsked, hasRepliesOrTemplates, repliedSince, templateSince } from "./queries";

const INCOMING = 0;
const DAY = 86_400;
/** Chatwoot: no out-of-office message when an agent replied in the last 5 minutes. */
const RECENT_REPLY = 300;

/** Chatwoot's texts (config/locales/en.yml conversations.templates). */
const WAYS_TO_REACH_YOU = "Give the team a way to reach you.";
const EMAIL_INPUT = "Get notified by email";

type Template = {
  key: string;
  content: string;
  contentType?: string;
};

/** Whether the inbox is open at `t` (its working hours, in its timezone). */
export function openAt(inbox: InboxRow, t: number): boolean {
  const settings = { enabled: true, timezone: inbox.timezone, hours: inbox.workingHours };
  return openIntervals(settings, t - 1, t + 1).some((i) => i.start <= t && t < i.end);
}

/** The start of the inbox's local day holding `t`, and that day's date (YYYY-MM-DD). */
export function localDay(inbox: InboxRow, t: number) {
  const wall = wallClock(inbox.timezone, t);
  const midnight = wall - (((wall % DAY) + DAY) % DAY);
  return {
    start: zonedToUtc(inbox.timezone, midnight),
    date: new Date(midnight * 1000).toISOString().slice(0, 10),
  };
}

/**
 * Chatwoot parity (MessageTemplates::HookExecutionService): what a contact's message makes the
 * inbox say by itself, in Chatwoot's order: the out-of-office message, the greeting, the email
 * request. Each rule is read again from D1 here, and each message carries an idempotency key
 * (per conversation; the out-of-office one per local day, as Chatwoot's "no template today"),
 * so a queue redelivery or two racing messages send nothing twice. Every inbox kind gets them,
 * the widget's included: it shows them as messages (the email request as an `input_email`
 * field) and draws no cards of its own, so API clients, webhooks and agents see what the
 * visitor sees.
 */
export async function templatesFor(
  db: ConversationScope["deps"]["db"],
  inbox: InboxRow,
  conversation: ConversationRow,
  at: number,
): Promise<Template[]> {
  const out: Template[] = [];
  if (inbox.workingHoursEnabled && inbox.outOfOfficeMessage?.trim() && !openAt(inbox, at)) {
    const day = localDay(inbox, at);
    const quiet =
      !(await repliedSince(db, conversation.id, at - RECENT_REPLY)) &&
      !(await templateSince(db, conversation.id, day.start));
    if (quiet) {
      out.push({ key: `out_of_office:${day.date}`, content: inbox.outOfOfficeMessage });
    }
  }
  // An out-of-office message just sent is a template: no greeting after it (as Chatwoot).
  if (
    out.length === 0 &&
    inbox.greetingEnabled &&
    inbox.greetingMessage?.trim() &&
    !(await hasRepliesOrTemplates(db, conversation.id))
  ) {
    out.push({ key: "greeting", content: inbox.greetingMessage });
  }
  if (inbox.enableEmailCollect && inbox.channelType === "Channel::WebWidget") {
    const contact = await findContact(db, conversation.accountId, conversation.contactId);
    if (contact && !contact.email && !(await emailAsked(db, conversation.id))) {
      out.push({ key: "email_collect:intro", content: WAYS_TO_REACH_YOU });
      out.push({ key: "email_collect", content: EMAIL_INPUT, contentType: "input_email" });
    }
  }
  return out;
}

/**
 * The queue handler: a contact's message (message_created, incoming) runs the rules once. The
 * message, conversation, inbox and account are read once per queue batch; what the rules check
 * (replies, templates sent, the contact's email) is read per event, as earlier events of the
 * batch may have changed it.
 */
export const templatesListener: AsyncListener = async (event, ctx) => {
  if (event.name !== "message_created" || event.conversationId === null) {
    return;
  }
  const message = await eventMessage(ctx, event);
  if (!message || message.messageType !== INCOMING) {
    return;
  }
  const conversation = await eventConversation(ctx, event);
  const inbox = conversation ? await batchInbox(ctx, conversation.inboxId) : undefined;
  if (!conversation || !inbox) {
    return;
  }
  const templates = await templatesFor(ctx.db, inbox, conversation, message.createdAt);
  const account = templates.length > 0 ? await batchAccount(ctx, conversation.accountId) : null;
  if (!account) {
    return;
  }
  const deps = createDeps(ctx.env, { now: ctx.now });
  const scope = {
    deps,
    account,
    actor: { kind: "system" as const },
    role: "administrator" as const,
  };
  try {
    for (const t of templates) {
      await createMessage({ ...scope, origin: "" }, conversation, {
        content: t.content,
        messageType: "template",
        contentType: t.contentType,
        idempotencyKey: t.key,
      });
    }
  } finally {
    await deps.events.flush();
  }
};

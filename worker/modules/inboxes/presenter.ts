import type { z } from "@hono/zod-openapi";
import type { AgentBotRow, InboxRow } from "../../db/schema";
import type { InboxBotSchema, InboxSchema } from "./schema";

type InboxJson = z.infer<typeof InboxSchema>;

export type InboxView = {
  /** Origin of the request, for the widget embed snippet. */
  origin: string;
  /** Administrators also see the inbox's secrets. */
  admin: boolean;
};

const isWidget = (row: InboxRow) => row.channelType === "Channel::WebWidget";

/**
 * The embed snippet. data-color paints the launcher in the inbox's colour from the first paint,
 * before the chat has told the loader (only a #rrggbb value, so nothing else enters the tag).
 */
export const widgetScript = (origin: string, row: InboxRow) => {
  const color = /^#[0-9a-f]{6}$/i.test(row.widgetColor) ? ` data-color="${row.widgetColor}"` : "";
  return `<script src="${origin}/widget.js" data-inbox="${row.inboxIdentifier}"${color} async></script>`;
};

/** Chatwoot's inbox partial, for both channel kinds. */
export function presentInbox(row: InboxRow, view: InboxView): InboxJson {
  const widget = isWidget(row);
  const body: InboxJson = {
    id: row.id,
    account_id: row.accountId,
    avatar_url: row.avatarUrl ?? "",
    // Parley keeps the channel in the inbox row, so the channel id is the inbox id.
    channel_id: row.id,
    name: row.name,
    channel_type: row.channelType,
    greeting_enabled: row.greetingEnabled,
    greeting_message: row.greetingMessage,
    working_hours_enabled: row.workingHoursEnabled,
    enable_email_collect: row.enableEmailCollect,
    csat_survey_enabled: row.csatSurveyEnabled,
    enable_auto_assignment: row.enableAutoAssignment,
    auto_assignment_config: {
      max_assignment_limit: maxAssignmentLimit(row.autoAssignmentConfig),
    },
    out_of_office_message: row.outOfOfficeMessage,
    working_hours: row.workingHours,
    timezone: row.timezone,
    callback_webhook_url: null,
    allow_messages_after_resolved: row.allowMessagesAfterResolved,
    lock_to_single_conversation: row.lockToSingleConversation,
    sender_name_type: "friendly",
    business_name: row.businessName,
    webhook_url: row.webhookUrl,
    inbox_identifier: row.inboxIdentifier,
    additional_attributes: row.additionalAttributes,
    hmac_mandatory: row.hmacMandatory,
    website_url: row.websiteUrl,
    widget_color: row.widgetColor,
    website_token: widget ? row.inboxIdentifier : null,
    web_widget_script: widget ? widgetScript(view.origin, row) : null,
    welcome_title: row.welcomeTitle,
    welcome_tagline: row.welcomeTagline,
    reply_time: row.replyTime,
    pre_chat_form_enabled: row.preChatFormEnabled,
    pre_chat_form_options: row.preChatFormOptions,
  };
  if (view.admin) {
    body.hmac_token = row.hmacToken;
    body.secret = row.hmacToken;
  }
  return body;
}

export function presentInboxBot(bot: AgentBotRow): z.infer<typeof InboxBotSchema> {
  return {
    id: bot.id,
    name: bot.name,
    description: bot.description,
    thumbnail: bot.thumbnail ?? "",
    bot_type: bot.botType,
    account_id: bot.accountId,
  };
}

/** The stored cap, when it is a positive whole number (null: no cap). */
export function maxAssignmentLimit(config: Record<string, unknown>): number | null {
  const limit = config.max_assignment_limit;
  return typeof limit === "number" && Number.isInteger(limit) && limit > 0 ? limit : null;
}

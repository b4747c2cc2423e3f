import type { InboxRow } from "../../db/schema";
import type { PublicInboxExtras } from "./queries.public";
import type { PublicInbox } from "./schema.public";

/** Chatwoot's public inbox (plus the widget's display settings); no secrets, no webhook URL. */
export function presentPublicInbox(
  row: InboxRow,
  { agents, portal }: PublicInboxExtras,
): PublicInbox {
  return {
    identifier: row.inboxIdentifier,
    name: row.name,
    timezone: row.timezone,
    working_hours: row.workingHours,
    working_hours_enabled: row.workingHoursEnabled,
    csat_survey_enabled: row.csatSurveyEnabled,
    greeting_enabled: row.greetingEnabled,
    greeting_message: row.greetingMessage,
    welcome_title: row.welcomeTitle,
    welcome_tagline: row.welcomeTagline,
    widget_color: row.widgetColor,
    enable_email_collect: row.enableEmailCollect,
    pre_chat_form_enabled: row.preChatFormEnabled,
    pre_chat_form_options: row.preChatFormOptions,
    reply_time: row.replyTime,
    out_of_office_message: row.outOfOfficeMessage,
    identity_validation_enabled: row.hmacMandatory,
    channel_type: row.channelType,
    locale: row.locale,
    // Never an email or an id: a visitor sees who answers, not how to reach them elsewhere.
    available_agents: agents.map((a) => ({
      name: a.displayName || a.name,
      avatar_url: a.avatarUrl || null,
      availability_status: a.availability,
    })),
    portal: portal
      ? {
          slug: portal.slug,
          default_locale: portal.defaultLocale,
          // A portal with no article yet offers its default locale alone, as its pages do.
          allowed_locales:
            portal.liveLocales.length > 0 ? portal.liveLocales : [portal.defaultLocale],
        }
      : null,
  };
}

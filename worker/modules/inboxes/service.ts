import type { AgentBotRow, InboxRow, WorkingHour } from "../../db/schema";
import { commit } from "../../events/commit";
import type { Deps } from "../../events/deps";
import { ApiError, invalidField } from "../../lib/errors";
import { secureToken } from "../../lib/ids";
import { pickDefined } from "../../lib/patch";
import { findBot } from "../agent-bots/queries";
import {
  type AuditWho,
  auditedChanges,
  auditRow,
  auditStatement,
  INSERTED_ID,
} from "../audit-logs/service";
import { closeEndedSessions } from "../contacts/sessions";
import { accessRevoked, botHolder } from "../live/revocation";
import { ensureCalendars } from "../reports/calendar";
import { checkReceiverUrl } from "../webhooks/service";
import { type InboxCaller, seesAllInboxes } from "./policy";
import {
  attachBot,
  bumpLinkedPortals,
  deleteInbox as deleteInboxRow,
  detachBot,
  findInbox,
  findInboxBot,
  insertInbox,
  isInboxMember,
  listInboxes,
  listMemberInboxes,
  type NewInbox,
  updateInbox as updateInboxRow,
} from "./queries";
import { CHANNEL_TYPES, type ChannelInput, type InboxCreate, type InboxUpdate } from "./schema";
import { DEFAULT_WORKING_HOURS, mergeWorkingHours } from "./working-hours";

export async function listVisibleInboxes(deps: Deps, accountId: number, caller: InboxCaller) {
  if (seesAllInboxes(caller)) {
    return listInboxes(deps.db, accountId);
  }
  const rows = await listMemberInboxes(deps.db, accountId, caller.userId ?? 0);
  return rows.map((r) => r.inbox);
}

/** Another account's inbox, or one an agent is not a member of, looks missing. */
export async function loadVisibleInbox(
  deps: Deps,
  accountId: number,
  id: number,
  caller: InboxCaller,
): Promise<InboxRow> {
  const inbox = await findInbox(deps.db, accountId, id);
  if (!inbox) {
    throw new ApiError("not_found");
  }
  if (!seesAllInboxes(caller) && !(await isInboxMember(deps.db, inbox.id, caller.userId ?? 0))) {
    throw new ApiError("not_found");
  }
  return inbox;
}

const INBOX_COLUMNS = {
  name: "name",
  avatar_url: "avatarUrl",
  greeting_enabled: "greetingEnabled",
  greeting_message: "greetingMessage",
  enable_auto_assignment: "enableAutoAssignment",
  auto_assignment_config: "autoAssignmentConfig",
  enable_email_collect: "enableEmailCollect",
  csat_survey_enabled: "csatSurveyEnabled",
  allow_messages_after_resolved: "allowMessagesAfterResolved",
  lock_to_single_conversation: "lockToSingleConversation",
  timezone: "timezone",
  working_hours_enabled: "workingHoursEnabled",
  out_of_office_message: "outOfOfficeMessage",
  business_name: "businessName",
} as const satisfies Partial<Record<keyof InboxUpdate, keyof NewInbox>>;

const CHANNEL_COLUMNS = {
  webhook_url: "webhookUrl",
  hmac_mandatory: "hmacMandatory",
  additional_attributes: "additionalAttributes",
  website_url: "websiteUrl",
  widget_color: "widgetColor",
  welcome_title: "welcomeTitle",
  welcome_tagline: "welcomeTagline",
  reply_time: "replyTime",
  pre_chat_form_enabled: "preChatFormEnabled",
  pre_chat_form_options: "preChatFormOptions",
} as const satisfies Record<keyof ChannelInput, keyof NewInbox>;

/**
 * The columns a create or update body sets; zod has already checked each value's type. The
 * webhook_url must not reach a private network ("" and null, which clear it, pass).
 */
function inboxValues(
  deps: Deps,
  input: InboxUpdate,
  currentHours: WorkingHour[],
): Partial<NewInbox> {
  const webhookUrl = input.channel?.webhook_url;
  if (webhookUrl) {
    checkReceiverUrl(deps, "channel.webhook_url", webhookUrl);
  }
  const values = {
    ...pickDefined(input, INBOX_COLUMNS),
    ...pickDefined(input.channel ?? {}, CHANNEL_COLUMNS),
  } as Partial<NewInbox>;
  if (input.working_hours !== undefined) {
    values.workingHours = mergeWorkingHours(currentHours, input.working_hours);
  }
  return values;
}

/** Chatwoot parity: the public identifier and the HMAC secret are generated, never chosen. */
export async function createInbox(
  deps: Deps,
  accountId: number,
  input: InboxCreate,
): Promise<InboxRow> {
  const channelType = CHANNEL_TYPES[input.channel.type];
  if (channelType === CHANNEL_TYPES.web_widget && !input.channel.website_url) {
    throw invalidField("channel.website_url", "is required for a web widget");
  }
  const values = {
    ...inboxValues(deps, input, DEFAULT_WORKING_HOURS),
    accountId,
    name: input.name,
    channelType,
    inboxIdentifier: secureToken(),
    hmacToken: secureToken(),
  };
  values.workingHours ??= DEFAULT_WORKING_HOURS;
  const { accountId: _, ...attributes } = values;
  const [[row]] = await deps.db.batch([
    insertInbox(deps.db, values),
    auditRow(deps, {
      accountId,
      action: "create",
      type: "Inbox",
      id: INSERTED_ID,
      changes: auditedChanges(null, attributes),
    }),
  ]);
  if (!row) {
    throw new ApiError("internal_error");
  }
  return row;
}

/** `who`: an administrator's change over the API, audited in the same batch (audit_logs). */
export async function updateInbox(
  deps: Deps,
  inbox: InboxRow,
  input: InboxUpdate,
  who?: AuditWho,
): Promise<InboxRow> {
  const values = inboxValues(deps, input, inbox.workingHours);
  const update = updateInboxRow(deps.db, inbox.id, { ...values, updatedAt: deps.now() });
  const changes = auditedChanges(inbox, values);
  const audit =
    who && Object.keys(changes).length > 0
      ? [
          auditStatement(deps.db, who, {
            accountId: inbox.accountId,
            action: "update",
            type: "Inbox",
            id: inbox.id,
            changes,
            at: deps.now(),
          }),
        ]
      : [];
  // Help-center pages show the launcher in this colour from their embed tag (data-color).
  const portalPages =
    values.widgetColor !== undefined && values.widgetColor !== inbox.widgetColor
      ? [bumpLinkedPortals(deps.db, inbox.id, deps.now())]
      : [];
  const [[row]] = await deps.db.batch([update, ...audit, ...portalPages]);
  const hoursChanged = ["timezone", "workingHoursEnabled", "workingHours"].some((k) => k in values);
  if (row && hoursChanged) {
    // Reporting events recorded from now on count business seconds by the new hours, in every
    // isolate: the calendar lives in D1, rebuilt here rather than at the next periodic check.
    await ensureCalendars(deps.db, [row.id], deps.now(), { force: true });
  }
  if (row?.hmacMandatory && !inbox.hmacMandatory) {
    // Unverified identified visitors' sessions end (docs/public-api.md): their sockets too.
    await closeEndedSessions(deps, row);
  }
  return row ?? inbox;
}

/** Deletes the inbox; every socket of its conversations closes with it. */
export async function deleteInbox(deps: Deps, inbox: InboxRow): Promise<void> {
  const { id, accountId, ...attributes } = inbox;
  const audit = auditRow(deps, {
    accountId,
    action: "destroy",
    type: "Inbox",
    id,
    changes: auditedChanges(null, attributes),
  });
  await commit(deps, [deleteInboxRow(deps.db, id), audit], [accessRevoked(accountId, null, id)]);
}

export async function inboxBot(deps: Deps, inbox: InboxRow): Promise<AgentBotRow | null> {
  return (await findInboxBot(deps.db, inbox.id))?.bot ?? null;
}

/** The bot must be the account's own or a system bot; null detaches. */
export async function setInboxBot(
  deps: Deps,
  inbox: InboxRow,
  botId: number | null,
): Promise<void> {
  const { db } = deps;
  const previous = (await findInboxBot(db, inbox.id))?.bot;
  // The bot that leaves the inbox loses its conversations: its sockets there close.
  const leaving =
    previous && previous.id !== botId
      ? [accessRevoked(inbox.accountId, [botHolder(previous.id)], inbox.id)]
      : [];
  if (botId === null) {
    await commit(deps, [detachBot(db, inbox.id)], leaving);
    return;
  }
  const bot = await findBot(db, botId);
  if (!bot || (bot.accountId !== null && bot.accountId !== inbox.accountId)) {
    throw new ApiError("not_found", "Agent bot could not be found");
  }
  await commit(deps, [attachBot(db, inbox.accountId, inbox.id, bot.id, deps.now())], leaving);
}

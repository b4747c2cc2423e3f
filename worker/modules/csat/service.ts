import type { ConversationRow, InboxRow, MessageRow } from "../../db/schema";
import type { Deps } from "../../events/deps";
import { ApiError, invalidField } from "../../lib/errors";
import { mailBaseUrl } from "../../lib/public-url";
import { findAccount } from "../accounts/queries";
import type { ConversationScope } from "../conversations/access";
import { findInboxById } from "../inboxes/queries.public";
import { createMessage } from "../messages/service";
import { updateMessage } from "../messages/service.changes";
import { conversationByUuid, INPUT_CSAT, surveyMessageOf } from "./queries";
import { type CsatAnswer, CsatAnswerSchema } from "./schema";

/** Chatwoot's texts (config/locales/en.yml conversations.templates / conversations.survey). */
const SURVEY_TEXT = "Please rate the conversation";
const surveyLinkText = (link: string) => `Please rate this conversation, ${link}`;

/** Chatwoot locks an answer 14 days after the survey was sent (CsatSurveyController). */
const LOCK_SECONDS = 14 * 86_400;

/** The idempotency key of the survey message: the room stores one per conversation. */
const SURVEY_KEY = "csat_survey";

/** The survey page of a conversation (Chatwoot's `/survey/responses/{uuid}`). */
export function surveyLink(deps: Deps, uuid: string): string {
  const base = mailBaseUrl(deps.env.PUBLIC_URL) ?? deps.origin;
  return `${base}/survey/responses/${uuid}`;
}

/**
 * Chatwoot parity (CsatSurveyService, MessageTemplates::Template::CsatSurvey): a conversation
 * resolved in an inbox with `csat_survey_enabled` gets one `input_csat` template message, never
 * two whatever path resolved it: the message carries a fixed idempotency key, so the room
 * answers a second try (a racing resolve, a resolve after a reopen) with the first message.
 * Website inboxes show it as the widget's rating card; other inboxes get the survey page's link
 * in the text (Chatwoot's Message#content for input_csat).
 */
export async function surveyOnResolve(
  scope: ConversationScope,
  before: ConversationRow,
  after: ConversationRow,
): Promise<void> {
  if (after.status !== "resolved" || before.status === "resolved") {
    return;
  }
  const inbox = await findInboxById(scope.deps.db, after.inboxId);
  if (!inbox?.csatSurveyEnabled) {
    return;
  }
  await sendSurvey(scope, inbox, after);
}

async function sendSurvey(scope: ConversationScope, inbox: InboxRow, row: ConversationRow) {
  const widget = inbox.channelType === "Channel::WebWidget";
  await createMessage({ ...scope, actor: { kind: "system" }, origin: scope.deps.origin }, row, {
    content: widget ? SURVEY_TEXT : surveyLinkText(surveyLink(scope.deps, row.uuid)),
    messageType: "template",
    contentType: INPUT_CSAT,
    // Captured when the survey is sent (Chatwoot #14872): the agent the answer credits.
    contentAttributes: { display_type: "emoji", assigned_agent_id: row.assigneeId },
    idempotencyKey: SURVEY_KEY,
  });
}

/**
 * The check of a visitor's answer to a survey message through the public message update:
 * `submitted_values.csat_survey_response` must be a rating 1–5 with an optional comment.
 * Other prompts' values are left to the caller.
 */
export function checkSubmission(message: MessageRow, submitted: unknown): void {
  if (message.contentType !== INPUT_CSAT) {
    return;
  }
  const answer = (submitted as { csat_survey_response?: unknown } | null)?.csat_survey_response;
  const parsed = CsatAnswerSchema.safeParse(answer);
  if (Array.isArray(submitted) || !parsed.success) {
    throw invalidField(
      "submitted_values",
      "must be {csat_survey_response: {rating: 1 to 5, feedback_message}}",
      "A survey answer is a rating from 1 to 5 with an optional comment",
    );
  }
  if (isLocked(message, Math.floor(Date.now() / 1000))) {
    throw new ApiError("validation_failed", "You cannot update the CSAT survey after 14 days");
  }
}

const isLocked = (message: MessageRow, now: number) => now - message.createdAt > LOCK_SECONDS;

/** A conversation's survey by the link's uuid (404 for an unknown uuid or no survey). */
export async function surveyByUuid(deps: Deps, uuid: string) {
  const found = /^[0-9a-f-]{36}$/i.test(uuid) ? await conversationByUuid(deps.db, uuid) : undefined;
  const message = found ? await surveyMessageOf(deps.db, found.conversation.id) : undefined;
  if (!found || !message) {
    throw new ApiError("not_found");
  }
  return {
    conversation: found.conversation,
    inboxName: found.inboxName,
    message,
    locked: isLocked(message, deps.now()),
  };
}

export type Survey = Awaited<ReturnType<typeof surveyByUuid>>;

/**
 * The survey page's answer (Chatwoot's PUT /public/api/v1/csat_survey/{uuid}): written into the
 * survey message's submitted_values through the message service, so the message_updated event,
 * its webhooks and live frames, and the stored response (a derived write of that event,
 * csat/derive.ts) follow as for an answer given in the widget.
 */
export async function answerSurvey(deps: Deps, uuid: string, answer: CsatAnswer) {
  const survey = await surveyByUuid(deps, uuid);
  if (survey.locked) {
    throw new ApiError("validation_failed", "You cannot update the CSAT survey after 14 days");
  }
  const account = await findAccount(deps.db, survey.conversation.accountId);
  if (!account) {
    throw new ApiError("not_found");
  }
  const scope = {
    deps,
    account,
    actor: { kind: "system" as const },
    role: "administrator" as const,
  };
  const submitted = {
    csat_survey_response: {
      rating: answer.rating,
      feedback_message: answer.feedback_message ?? null,
    },
  };
  const message = await updateMessage(
    { ...scope, origin: deps.origin },
    survey.conversation,
    survey.message.id,
    {
      content_attributes: { submitted_values: submitted },
    },
  );
  return { ...survey, message };
}

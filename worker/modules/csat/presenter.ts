import type { MessageRow } from "../../db/schema";
import type { ResponseListRow } from "./queries";
import type { Survey } from "./service";

type Answer = { rating: number; feedback_message: string | null } | null;

/** The answer a survey message carries (submitted_values.csat_survey_response), if any. */
export function answerOf(message: MessageRow): Answer {
  const attrs = message.contentAttributes as { submitted_values?: unknown } | null;
  const given = (attrs?.submitted_values as { csat_survey_response?: unknown } | undefined)
    ?.csat_survey_response as { rating?: unknown; feedback_message?: unknown } | undefined;
  if (typeof given?.rating !== "number") {
    return null;
  }
  const feedback = typeof given.feedback_message === "string" ? given.feedback_message : null;
  return { rating: given.rating, feedback_message: feedback };
}

/** The public survey API's record (Chatwoot's public csat_survey partial, with the text). */
export function presentSurvey(survey: Survey) {
  const display = (survey.message.contentAttributes as { display_type?: unknown } | null)
    ?.display_type;
  return {
    id: survey.message.id,
    conversation_id: survey.conversation.displayId,
    content: survey.message.content,
    display_type: typeof display === "string" ? display : "emoji",
    csat_survey_response: answerOf(survey.message),
    inbox_name: survey.inboxName,
    locked: survey.locked,
    created_at: survey.message.createdAt,
  };
}

/** Chatwoot's csat_survey_response partial. */
export function presentResponse(row: ResponseListRow) {
  const r = row.response;
  return {
    id: r.id,
    rating: r.rating,
    feedback_message: r.feedbackMessage,
    account_id: r.accountId,
    message_id: r.messageId,
    conversation_id: row.displayId,
    inbox_id: r.inboxId,
    team_id: r.teamId,
    contact: row.contact?.id ? row.contact : null,
    assigned_agent: row.agent?.id ? row.agent : null,
    created_at: r.createdAt,
  };
}

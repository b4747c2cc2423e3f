import { z } from "@hono/zod-openapi";

/** Chatwoot's feedback box; bounded (a comment, not a document). */
export const MAX_FEEDBACK = 2000;

/** A visitor's answer: Chatwoot's csat_survey_response, a rating 1–5 and an optional comment. */
export const CsatAnswerSchema = z
  .object({
    rating: z.number().int().min(1).max(5).openapi({ example: 5 }),
    feedback_message: z.string().max(MAX_FEEDBACK).nullable().optional(),
  })
  .strict()
  .openapi("CsatSurveyAnswer");

export type CsatAnswer = z.infer<typeof CsatAnswerSchema>;

/** The body of the survey page's PUT, Chatwoot's `message[submitted_values][csat_survey_response]`. */
export const CsatSurveyUpdateSchema = z
  .object({
    message: z.object({
      submitted_values: z.object({ csat_survey_response: CsatAnswerSchema }),
    }),
  })
  .openapi("CsatSurveyUpdate");

/** What the public survey API shows of a conversation's survey (no token: only the survey). */
export const PublicCsatSurveySchema = z
  .object({
    id: z.number().int().openapi({ description: "The input_csat message" }),
    conversation_id: z.number().int().openapi({ description: "The conversation's display id" }),
    content: z.string().nullable(),
    display_type: z.string().openapi({ example: "emoji" }),
    csat_survey_response: z
      .object({ rating: z.number().int(), feedback_message: z.string().nullable() })
      .nullable(),
    inbox_name: z.string(),
    locked: z.boolean().openapi({ description: "Answered more than 14 days after it was sent" }),
    created_at: z.number().int(),
  })
  .openapi("PublicCsatSurvey");

const Person = z.object({
  id: z.number().int(),
  name: z.string().nullable(),
  email: z.string().nullable(),
});

export const CsatSurveyResponseSchema = z
  .object({
    id: z.number().int(),
    rating: z.number().int(),
    feedback_message: z.string().nullable(),
    account_id: z.number().int(),
    message_id: z.number().int(),
    conversation_id: z.number().int().openapi({ description: "The conversation's display id" }),
    inbox_id: z.number().int(),
    team_id: z.number().int().nullable(),
    contact: Person.extend({ phone_number: z.string().nullable() }).nullable(),
    assigned_agent: Person.nullable(),
    created_at: z.number().int(),
  })
  .openapi("CsatSurveyResponse");

export const CsatMetricsSchema = z
  .object({
    total_count: z.number().int().openapi({ description: "Responses in the range" }),
    ratings_count: z
      .record(z.string(), z.number().int())
      .openapi({ description: "Responses per rating", example: { "5": 3, "2": 1 } }),
    total_sent_messages_count: z.number().int().openapi({ description: "Surveys sent" }),
    response_rate: z.number().openapi({ description: "Responses per survey sent, 0–100" }),
    satisfaction_score: z
      .number()
      .openapi({ description: "Share of responses rated 4 or 5, 0–100 (Chatwoot's CSAT score)" }),
  })
  .openapi("CsatMetrics");

const unixSeconds = (name: string) =>
  z
    .string()
    .regex(/^\d{1,11}$/, "must be Unix seconds")
    .transform(Number)
    .optional()
    .openapi({ param: { name, in: "query" }, example: "1700000000" });

const idList = z
  .union([z.string(), z.array(z.string())])
  .transform((v) => (Array.isArray(v) ? v : v.split(",")).filter((s) => s !== ""))
  .pipe(
    z
      .array(
        z
          .string()
          .regex(/^\d{1,10}$/)
          .transform(Number),
      )
      .max(100),
  )
  .optional();

/** Chatwoot's filters: since/until (created_at), user_ids, inbox_id, team_id, rating. */
export const CsatFilterQuery = z.object({
  since: unixSeconds("since"),
  until: unixSeconds("until"),
  user_ids: idList.openapi({ param: { name: "user_ids", in: "query" }, type: "string" }),
  "user_ids[]": idList.openapi({ param: { name: "user_ids[]", in: "query" }, type: "string" }),
  inbox_id: z.coerce
    .number()
    .int()
    .positive()
    .max(2 ** 31)
    .optional(),
  team_id: z.coerce
    .number()
    .int()
    .positive()
    .max(2 ** 31)
    .optional(),
  rating: idList.openapi({ param: { name: "rating", in: "query" }, type: "string" }),
});

export type CsatFilter = {
  since?: number;
  until?: number;
  userIds?: number[];
  inboxId?: number;
  teamId?: number;
  ratings?: number[];
};

export const filterOf = (q: z.infer<typeof CsatFilterQuery>): CsatFilter => ({
  since: q.since,
  until: q.until,
  userIds: q.user_ids ?? q["user_ids[]"],
  inboxId: q.inbox_id,
  teamId: q.team_id,
  ratings: q.rating,
});

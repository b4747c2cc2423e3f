import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../../http/context";
import { errorResponses } from "../../http/errors";
import { createRouter } from "../../http/router";
import { jsonBody, jsonContent } from "../../http/schemas/envelopes";
import { ApiError } from "../../lib/errors";
import { notFoundPage, SURVEY_PAGE_HEADERS, surveyPage } from "./page";
import { presentSurvey } from "./presenter";
import { CsatAnswerSchema, CsatSurveyUpdateSchema, PublicCsatSurveySchema } from "./schema";
import { answerSurvey, surveyByUuid } from "./service";

const tags = ["Public API"];
const UuidParams = z.object({
  conversation_uuid: z
    .string()
    .max(64)
    .openapi({
      param: { name: "conversation_uuid", in: "path" },
      description: "The conversation's uuid",
    }),
});

// Chatwoot: GET /public/api/v1/csat_survey/{conversation_uuid}
const show = createRoute({
  method: "get",
  path: "/csat_survey/{conversation_uuid}",
  tags,
  summary: "A conversation's CSAT survey, by the uuid of its link",
  request: { params: UuidParams },
  responses: { 200: jsonContent(PublicCsatSurveySchema, "The survey"), ...errorResponses },
});

// Chatwoot: PUT /public/api/v1/csat_survey/{conversation_uuid}
const update = createRoute({
  method: "put",
  path: "/csat_survey/{conversation_uuid}",
  tags,
  summary: "Answer (or change the answer to) a CSAT survey; closed 14 days after it was sent",
  request: { params: UuidParams, body: jsonBody(CsatSurveyUpdateSchema) },
  responses: { 200: jsonContent(PublicCsatSurveySchema, "The answered survey"), ...errorResponses },
});

export const csatPublicRoutes = createRouter<AppEnv>()
  .openapi(show, async (c) => {
    const survey = await surveyByUuid(c.var.deps, c.req.valid("param").conversation_uuid);
    return c.json(presentSurvey(survey), 200);
  })
  .openapi(update, async (c) => {
    const answer = c.req.valid("json").message.submitted_values.csat_survey_response;
    const done = await answerSurvey(c.var.deps, c.req.valid("param").conversation_uuid, answer);
    return c.json(presentSurvey(done), 200);
  });

const showPage = (
  c: Context<AppEnv>,
  body: ReturnType<typeof surveyPage>,
  status: 200 | 404 | 422 = 200,
) => c.html(body, status, SURVEY_PAGE_HEADERS);

const htmlPage = (description: string) => ({
  content: { "text/html": { schema: z.string() } },
  description,
});

// Chatwoot: GET /survey/responses/{conversation_uuid} (in its OpenAPI file, so in ours).
const page = createRoute({
  method: "get",
  path: "/survey/responses/{conversation_uuid}",
  tags: ["CSAT Survey Page"],
  summary: "The CSAT survey page (HTML, no script) a visitor may be sent to",
  // No token: the link's uuid is the credential.
  security: [],
  request: { params: UuidParams },
  responses: {
    200: htmlPage("The survey page, answered or not"),
    404: htmlPage("No survey at this link"),
  },
});

/** The survey page (no JavaScript): opening it changes nothing; its form's POST answers. */
export const csatPageRoutes = createRouter<AppEnv>()
  .openapi(page, async (c) => {
    try {
      const uuid = c.req.valid("param").conversation_uuid;
      return showPage(c, surveyPage(await surveyByUuid(c.var.deps, uuid)));
    } catch (err) {
      if (err instanceof ApiError && err.code === "not_found") {
        return showPage(c, notFoundPage(), 404);
      }
      throw err;
    }
  })
  .post("/survey/responses/:uuid", async (c) => {
    const uuid = c.req.param("uuid");
    let survey: Awaited<ReturnType<typeof surveyByUuid>>;
    try {
      survey = await surveyByUuid(c.var.deps, uuid);
    } catch (err) {
      if (err instanceof ApiError && err.code === "not_found") {
        return showPage(c, notFoundPage(), 404);
      }
      throw err;
    }
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const feedback = typeof form.feedback_message === "string" ? form.feedback_message.trim() : "";
    const answer = CsatAnswerSchema.safeParse({
      rating: Number(form.rating),
      feedback_message: feedback === "" ? null : feedback,
    });
    if (!answer.success) {
      const error = "Choose a rating from 1 to 5 (a comment holds up to 2,000 characters).";
      return showPage(c, surveyPage(survey, { error }), 422);
    }
    try {
      const done = await answerSurvey(c.var.deps, uuid, answer.data);
      return showPage(c, surveyPage(done, { thanks: true }));
    } catch (err) {
      if (err instanceof ApiError && err.code === "validation_failed") {
        return showPage(c, surveyPage(survey, { error: err.message }), 422);
      }
      throw err;
    }
  });

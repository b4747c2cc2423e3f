import { createRoute, z } from "@hono/zod-openapi";
import type { AccountEnv } from "../../http/context";
import { errorResponses } from "../../http/errors";
import { requireAdmin } from "../../http/middleware/require-role";
import { createRouter } from "../../http/router";
import { jsonContent } from "../../http/schemas/envelopes";
import { ArticleFeedbackCountsSchema } from "./schema.articles";
import { ArticleParams } from "./schema.common";
import { loadArticle } from "./service.articles";
import { FEEDBACK_PER_PAGE, listFeedback } from "./service.feedback";
import { loadPortal } from "./service.portals";

const ArticleFeedbackSchema = z
  .object({
    id: z.number().int(),
    helpful: z.boolean().openapi({ description: "The visitor's answer: true for yes" }),
    comment: z.string().openapi({ description: "What the visitor wrote (at most 500 characters)" }),
    created_at: z.number().int(),
    updated_at: z.number().int(),
  })
  .openapi("ArticleFeedback");

const ArticleFeedbackListSchema = z
  .object({
    payload: z.array(ArticleFeedbackSchema),
    meta: ArticleFeedbackCountsSchema.extend({
      current_page: z.number().int(),
      comments_count: z.number().int(),
    }),
  })
  .openapi("ArticleFeedbackList");

const list = createRoute({
  method: "get",
  path: "/portals/{portal_slug}/articles/{article_id}/feedback",
  tags: ["Help center"],
  summary: `What visitors said about an article (${FEEDBACK_PER_PAGE} comments a page)`,
  description:
    'Parley\'s own: the "Was this helpful?" answers of the public article. `meta` counts every ' +
    "vote; `payload` lists the votes that came with a comment, newest first. No visitor " +
    "identity is kept beyond a hashed cookie, and none is answered. Administrators only.",
  middleware: [requireAdmin] as const,
  request: {
    params: ArticleParams,
    query: z.object({
      page: z
        .string()
        .regex(/^\d{1,6}$/, "must be a positive integer")
        .transform(Number)
        .optional()
        .openapi({ param: { name: "page", in: "query" } }),
    }),
  },
  responses: {
    200: jsonContent(ArticleFeedbackListSchema, "Votes and comments"),
    ...errorResponses,
  },
});

export const feedbackAccountRoutes = createRouter<AccountEnv>().openapi(list, async (c) => {
  const { portal_slug, article_id } = c.req.valid("param");
  const portal = await loadPortal(c.var.deps, c.var.account.id, portal_slug);
  const article = await loadArticle(c.var.deps, portal, article_id);
  const page = Math.max(1, c.req.valid("query").page ?? 1);
  return c.json(await listFeedback(c.var.deps, article.id, page), 200);
});

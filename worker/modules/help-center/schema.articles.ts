import { z } from "@hono/zod-openapi";
import { ARTICLE_STATUSES } from "../../db/schema/help-center";
import { CategoryRefSchema } from "./schema.categories";
import { LocaleSchema, optionalId, optionalText, SlugInput } from "./schema.common";

export const ArticleMetaSchema = z
  .object({
    title: z.string().max(255).optional(),
    description: z.string().max(1000).optional(),
    tags: z.array(z.string().trim().min(1).max(64)).max(32).optional(),
  })
  .openapi("ArticleMeta");

const AuthorSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  available_name: z.string(),
  thumbnail: z.string(),
});

const ArticleRefSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  slug: z.string(),
  locale: z.string(),
  status: z.enum(ARTICLE_STATUSES),
});

export const ArticleFeedbackCountsSchema = z
  .object({
    helpful_count: z.number().int().openapi({ description: "Visitors who answered yes" }),
    not_helpful_count: z.number().int().openapi({ description: "Visitors who answered no" }),
  })
  .openapi("ArticleFeedbackCounts", {
    description:
      '"Was this helpful?" on the public article: one vote per visitor (a changed vote moves, never adds)',
  });

export const ArticleSchema = z
  .object({
    id: z.number().int(),
    account_id: z.number().int(),
    portal_id: z.number().int(),
    category_id: z.number().int().nullable(),
    author_id: z.number().int().nullable(),
    folder_id: z.number().int().nullable(),
    associated_article_id: z.number().int().nullable(),
    title: z.string(),
    slug: z.string(),
    content: z.string(),
    description: z.string().nullable(),
    locale: z.string(),
    status: z.enum(ARTICLE_STATUSES).openapi({
      description: "Chatwoot answers the label; requests may send it or its integer (0, 1, 2)",
    }),
    position: z.number().int(),
    views: z.number().int(),
    feedback: ArticleFeedbackCountsSchema,
    meta: ArticleMetaSchema,
    category: CategoryRefSchema.nullable(),
    author: AuthorSchema.nullable(),
    associated_articles: z.array(ArticleRefSchema),
    public_url: z.string().nullable().openapi({ description: "Set while the article is public" }),
    created_at: z.number().int(),
    updated_at: z.number().int(),
  })
  .openapi("Article");

/** The spec's E10 answers the record; Chatwoot clients read `payload`: both are here. */
export const ArticleEnvelopeSchema = ArticleSchema.extend({ payload: ArticleSchema }).openapi(
  "ArticleEnvelope",
);

export const ArticleListSchema = z
  .object({
    payload: z.array(ArticleSchema),
    meta: z.object({
      current_page: z.number().int(),
      articles_count: z.number().int(),
      all_articles_count: z.number().int(),
      published_count: z.number().int(),
      draft_articles_count: z.number().int(),
      archived_articles_count: z.number().int(),
      mine_articles_count: z.number().int(),
    }),
  })
  .openapi("ArticleList");

/** 0/1/2 or the label, as a number or a numeric string (form-style clients). */
export const StatusInput = z
  .union([
    z.number().int().min(0).max(2),
    z.enum(ARTICLE_STATUSES),
    z.enum(["0", "1", "2"]).transform(Number),
  ])
  .transform((s) => (typeof s === "number" ? s : ARTICLE_STATUSES.indexOf(s)))
  .openapi({ example: 1, description: "0 draft, 1 published, 2 archived (or the label)" });

const queryInt = z
  .string()
  .regex(/^\d{1,9}$/, "must be a positive integer")
  .transform(Number);

export const ArticleListQuery = z.object({
  status: StatusInput.optional().openapi({ param: { name: "status", in: "query" } }),
  locale: LocaleSchema.optional().openapi({ param: { name: "locale", in: "query" } }),
  category_slug: z
    .string()
    .max(200)
    .optional()
    .openapi({ param: { name: "category_slug", in: "query" } }),
  author_id: queryInt.optional().openapi({ param: { name: "author_id", in: "query" } }),
  query: z
    .string()
    .max(200)
    .optional()
    .openapi({ param: { name: "query", in: "query" } }),
  page: queryInt.optional().openapi({ param: { name: "page", in: "query" } }),
});

const articleFields = {
  title: z.string().trim().min(1).max(255).openapi({ example: "Reset your password" }),
  slug: SlugInput,
  content: z.string().max(200_000).nullable().optional(),
  description: optionalText(1000),
  locale: LocaleSchema.optional(),
  status: StatusInput.optional(),
  position: z.number().int().min(0).max(1_000_000).optional(),
  category_id: optionalId,
  author_id: optionalId,
  associated_article_id: optionalId,
  folder_id: optionalId,
  meta: ArticleMetaSchema.optional(),
};

export const ArticleCreateSchema = z.object(articleFields).openapi("ArticleCreate");
export const ArticleUpdateSchema = z
  .object({ ...articleFields, title: articleFields.title.optional() })
  .openapi("ArticleUpdate");

export const ArticleReorderSchema = z
  .object({
    positions_hash: z
      .record(
        z.string().regex(/^\d{1,15}$/, "keys must be article ids"),
        z.number().int().min(0).max(1_000_000),
      )
      .refine((r) => Object.keys(r).length <= 500, "at most 500 articles at once")
      .openapi({ example: { "12": 1, "15": 2 } }),
  })
  .openapi("ArticleReorder");

export type ArticleCreate = z.infer<typeof ArticleCreateSchema>;
export type ArticleUpdate = z.infer<typeof ArticleUpdateSchema>;
export type ArticleJson = z.infer<typeof ArticleSchema>;

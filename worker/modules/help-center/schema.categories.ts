import { z } from "@hono/zod-openapi";
import { LocaleSchema, optionalId, optionalText, SlugInput } from "./schema.common";

/** A category where another record names it (linked, parent, an article's category). */
export const CategoryRefSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    slug: z.string(),
    locale: z.string(),
  })
  .openapi("CategoryRef");

export const CategorySchema = z
  .object({
    id: z.number().int(),
    account_id: z.number().int(),
    portal_id: z.number().int(),
    name: z.string(),
    slug: z.string(),
    locale: z.string(),
    description: z.string().nullable(),
    icon: z.string().nullable(),
    position: z.number().int(),
    parent_category_id: z.number().int().nullable(),
    associated_category_id: z.number().int().nullable(),
    parent_category: CategoryRefSchema.nullable(),
    linked_categories: z.array(CategoryRefSchema).openapi({
      description: "The same category in other locales (linked through associated_category_id)",
    }),
    meta: z.object({ articles_count: z.number().int() }),
    created_at: z.number().int(),
    updated_at: z.number().int(),
  })
  .openapi("Category");

/** The spec's E11 answers the record; Chatwoot clients read `payload`: both are here. */
export const CategoryEnvelopeSchema = CategorySchema.extend({ payload: CategorySchema }).openapi(
  "CategoryEnvelope",
);

export const CategoryListSchema = z
  .object({
    payload: z.array(CategorySchema),
    meta: z.object({ current_page: z.number().int(), categories_count: z.number().int() }),
  })
  .openapi("CategoryList");

export const CategoryListQuery = z.object({
  locale: LocaleSchema.optional().openapi({ param: { name: "locale", in: "query" } }),
});

const categoryFields = {
  name: z.string().trim().min(1).max(255).openapi({ example: "Getting started" }),
  slug: SlugInput,
  description: optionalText(10_000),
  locale: LocaleSchema.optional(),
  // One emoji (or a short sequence of them); the public pages print it escaped.
  icon: z.string().trim().max(32).nullable().optional().openapi({ example: "📚" }),
  position: z.number().int().min(0).max(1_000_000).optional(),
  parent_category_id: optionalId,
  associated_category_id: optionalId,
};

export const CategoryCreateSchema = z.object(categoryFields).openapi("CategoryCreate");
export const CategoryUpdateSchema = z
  .object({ ...categoryFields, name: categoryFields.name.optional() })
  .openapi("CategoryUpdate");

export type CategoryCreate = z.infer<typeof CategoryCreateSchema>;
export type CategoryUpdate = z.infer<typeof CategoryUpdateSchema>;
export type CategoryJson = z.infer<typeof CategorySchema>;

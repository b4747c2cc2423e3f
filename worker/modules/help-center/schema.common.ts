import { z } from "@hono/zod-openapi";
import { accountParams, IdParam } from "../../http/schemas/ids";
import { MAX_SLUG, SLUG_PATTERN } from "./slug";

export const LocaleSchema = z
  .string()
  .trim()
  .regex(/^[a-z]{2,3}([_-][A-Za-z]{2,4})?$/, "must be a locale code such as en or pt_BR")
  .openapi({ example: "en" });

/** A slug as sent: lower-cased; blank means "make one from the title/name". */
export const SlugInput = z
  .string()
  .trim()
  .toLowerCase()
  .max(MAX_SLUG)
  .refine((s) => s === "" || SLUG_PATTERN.test(s), {
    message: "may hold only letters, digits and single hyphens",
  })
  .nullable()
  .optional()
  .openapi({ example: "getting-started" });

/** Free text fields: trimmed, bounded, blank stored as null. */
export const optionalText = (max: number) => z.string().trim().max(max).nullable().optional();

/** A linked record's id; null unlinks it. */
export const optionalId = z
  .number()
  .int()
  .positive()
  .max(Number.MAX_SAFE_INTEGER)
  .nullable()
  .optional();

export const PortalSlugParam = z
  .string()
  .min(1)
  .max(200)
  .openapi({ param: { name: "portal_slug", in: "path" }, example: "handbook" });

export const PortalParams = accountParams({ portal_slug: PortalSlugParam });

export const CategoryParams = accountParams({
  portal_slug: PortalSlugParam,
  category_id: IdParam.openapi({
    param: { name: "category_id", in: "path" },
    type: "integer",
    example: "1",
  }),
});

export const ArticleParams = accountParams({
  portal_slug: PortalSlugParam,
  article_id: IdParam.openapi({
    param: { name: "article_id", in: "path" },
    type: "integer",
    example: "1",
  }),
});

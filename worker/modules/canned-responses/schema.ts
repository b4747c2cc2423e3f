import { z } from "@hono/zod-openapi";
import { accountParams, IdParam } from "../../http/schemas/ids";

export const CannedResponseParams = accountParams({
  id: IdParam.openapi({ param: { name: "id", in: "path" }, type: "integer", example: "1" }),
});

export const MAX_SHORT_CODE = 255;
export const MAX_CANNED_CONTENT = 10_000;

export const CannedResponseSchema = z
  .object({
    id: z.number().int(),
    account_id: z.number().int(),
    short_code: z.string().openapi({ example: "welcome" }),
    content: z.string().openapi({ example: "Hello {{contact.name}}, welcome!" }),
    created_at: z.string().openapi({ format: "date-time" }),
    updated_at: z.string().openapi({ format: "date-time" }),
  })
  .openapi("CannedResponse");

export const CannedResponseListSchema = z.array(CannedResponseSchema).openapi("CannedResponseList");

export const CannedResponseListQuery = z.object({
  search: z
    .string()
    .max(MAX_SHORT_CODE)
    .optional()
    .openapi({ description: "Matches short codes and contents (case-insensitive)" }),
});

export const CannedResponseShowQuery = z.object({
  conversation_id: IdParam.optional().openapi({
    description: "Fill the content's {{variables}} in for this conversation",
  }),
});

const fields = {
  short_code: z
    .string()
    .trim()
    .min(1, { abort: true })
    .max(MAX_SHORT_CODE)
    .openapi({ example: "welcome" }),
  content: z
    .string()
    .min(1, { abort: true })
    .max(MAX_CANNED_CONTENT)
    .refine((s) => s.trim() !== "", "can't be blank")
    .openapi({ example: "Hello {{contact.name}}, welcome!" }),
};

export const CannedResponseCreateSchema = z.object(fields).openapi("CannedResponseCreate");
export const CannedResponseUpdateSchema = z
  .object({ short_code: fields.short_code.optional(), content: fields.content.optional() })
  .openapi("CannedResponseUpdate");

export type CannedResponseCreate = z.infer<typeof CannedResponseCreateSchema>;
export type CannedResponseUpdate = z.infer<typeof CannedResponseUpdateSchema>;

import { z } from "@hono/zod-openapi";
import { accountParams, IdParam } from "../../http/schemas/ids";

export const TeamParams = accountParams({
  team_id: IdParam.openapi({
    param: { name: "team_id", in: "path" },
    type: "integer",
    example: "1",
  }),
});

export const TeamSchema = z
  .object({
    id: z.number().int(),
    name: z.string().openapi({ example: "support" }),
    description: z.string().nullable(),
    allow_auto_assign: z.boolean(),
    account_id: z.number().int(),
    is_member: z.boolean().openapi({ description: "Whether the caller belongs to the team" }),
  })
  .openapi("Team");

export const TeamListSchema = z.array(TeamSchema).openapi("TeamList");

const teamFields = {
  // Chatwoot parity: team names are stored lower-cased (and we trim them too).
  name: z.string().trim().toLowerCase().min(1).max(255).openapi({ example: "Support" }),
  description: z.string().max(10_000).nullable().optional(),
  allow_auto_assign: z.boolean().optional(),
};

export const TeamCreateSchema = z.object(teamFields).openapi("TeamCreate");

export const TeamUpdateSchema = z
  .object({ ...teamFields, name: teamFields.name.optional() })
  .openapi("TeamUpdate");

/** Chatwoot clients send ids as numbers, form-style clients as numeric strings. */
const userId = z.union([
  z.number().int().positive(),
  z
    .string()
    .regex(/^\d{1,15}$/, "must be a numeric id")
    .transform(Number),
]);

export const TeamMembersBodySchema = z
  .object({
    user_ids: z
      .array(userId)
      .max(1000)
      .openapi({ example: [1, 2] }),
  })
  .openapi("TeamMembersBody");

export type TeamCreate = z.infer<typeof TeamCreateSchema>;
export type TeamUpdate = z.infer<typeof TeamUpdateSchema>;

import { z } from "@hono/zod-openapi";
import { JsonObjectSchema } from "../../http/schemas/bounded-json";

export const RoleSchema = z.enum(["agent", "administrator"]).openapi("AccountRole");

export const UserAccountSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    status: z.enum(["active", "suspended"]),
    active_at: z.string().nullable().openapi({ format: "date-time" }),
    role: RoleSchema,
    permissions: z.array(z.string()).openapi({ example: ["administrator"] }),
    availability: z.enum(["online", "offline", "busy"]),
    availability_status: z.enum(["online", "offline", "busy"]),
    auto_offline: z.boolean(),
    custom_role_id: z.number().int().nullable(),
    custom_role: z.record(z.string(), z.unknown()).nullable(),
  })
  .openapi("UserAccount");

export const UserSchema = z
  .object({
    id: z.number().int(),
    access_token: z.string(),
    account_id: z.number().int().nullable().openapi({ description: "The user's first account." }),
    available_name: z.string(),
    avatar_url: z.string(),
    confirmed: z.boolean(),
    display_name: z.string().nullable(),
    message_signature: z.string().nullable(),
    email: z.string(),
    hmac_identifier: z.string(),
    inviter_id: z.number().int().nullable(),
    name: z.string(),
    provider: z.string().openapi({ example: "email" }),
    pubsub_token: z.string(),
    role: RoleSchema.nullable().openapi({ description: "Role in the first account." }),
    ui_settings: z.record(z.string(), z.unknown()),
    uid: z.string(),
    type: z.string().nullable(),
    custom_attributes: z
      .record(z.string(), z.unknown())
      .optional()
      .openapi({ description: "Present only when the user has custom attributes." }),
    accounts: z.array(UserAccountSchema),
  })
  .openapi("User", { description: "The spec's user record (platform API)." });

/**
 * A user where another record names it (a conversation's live assignee): `name` is the display
 * name there.
 */
export const UserRefSchema = UserSchema.pick({ id: true, name: true, avatar_url: true });

export type UserRef = z.infer<typeof UserRefSchema>;

const userFields = {
  name: z.string().trim().min(1).max(255).openapi({ example: "Daniel" }),
  display_name: z.string().trim().max(255).nullable().openapi({ example: "Dan" }),
  email: z.email().max(255).openapi({ example: "daniel@acme.inc" }),
  password: z
    .string()
    .min(6)
    .max(128)
    .openapi({ description: "Stored as a salted hash, never returned." }),
  custom_attributes: JsonObjectSchema,
};

export const UserCreateSchema = z
  .object({
    ...userFields,
    display_name: userFields.display_name.optional(),
    password: userFields.password.optional(),
    custom_attributes: userFields.custom_attributes.optional(),
  })
  .openapi("UserCreate");

export const UserUpdateSchema = z.object(userFields).partial().openapi("UserUpdate");

export const AccountUserSchema = z
  .object({
    id: z.number().int(),
    account_id: z.number().int(),
    user_id: z.number().int(),
    role: RoleSchema,
    inviter_id: z.number().int().nullable(),
    created_at: z.number().int().openapi({ description: "Unix seconds." }),
    updated_at: z.number().int().openapi({ description: "Unix seconds." }),
  })
  .openapi("AccountUser");

export const AccountUserListSchema = z.array(AccountUserSchema).openapi("AccountUserList");

export const AccountUserUpsertSchema = z
  .object({
    user_id: z.number().int().positive().openapi({ example: 1 }),
    role: RoleSchema,
  })
  .openapi("AccountUserUpsert");

export const AccountUserRemoveSchema = z
  .object({ user_id: z.number().int().positive().openapi({ example: 1 }) })
  .openapi("AccountUserRemove");

export type UserCreate = z.infer<typeof UserCreateSchema>;
export type UserUpdate = z.infer<typeof UserUpdateSchema>;

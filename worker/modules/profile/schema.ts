import { z } from "@hono/zod-openapi";
import { JsonObjectSchema } from "../../http/schemas/bounded-json";
import { unwrapped } from "../../http/schemas/envelopes";
import { NewPasswordSchema } from "../auth/schema";

/** Chatwoot's PUT /api/v1/profile: the user's own fields, flat or under `profile`. */
export const ProfileUpdateSchema = unwrapped(
  "profile",
  z
    .object({
      name: z.string().trim().min(1).max(255).openapi({ example: "Jane Doe" }),
      display_name: z.string().trim().max(255).nullable().openapi({ example: "Jane" }),
      message_signature: z.string().max(10_000).nullable(),
      email: z.string().trim().toLowerCase().pipe(z.email().max(255)),
      ui_settings: JsonObjectSchema,
      password: NewPasswordSchema,
      password_confirmation: z.string().max(128),
      current_password: z
        .string()
        .max(128)
        .openapi({ description: "Required to change `email` or `password`." }),
    })
    .partial()
    .refine(
      (v) =>
        v.password === undefined ||
        v.password_confirmation === undefined ||
        v.password === v.password_confirmation,
      { path: ["password_confirmation"], message: "doesn't match password" },
    )
    .openapi("ProfileUpdate"),
);

export type ProfileUpdate = z.infer<typeof ProfileUpdateSchema>;

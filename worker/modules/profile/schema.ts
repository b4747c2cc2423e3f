import { z } from "@hono/zod-openapi";
import { JsonObjectSchema } from "../../http/schemas/bounded-json";
import { unwrapped } from "../../http/schemas/envelopes";
import { AVAILABILITIES } from "../agents/schema";
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

/** Which of the user's accounts: a number, or its digits as a string (Chatwoot's clients). */
const AccountIdField = z
  .union([
    z.number().int().positive().max(1e15),
    z
      .string()
      .regex(/^\d{1,15}$/)
      .transform(Number),
  ])
  .openapi({ type: "integer", example: 1 });

/** Chatwoot's POST /api/v1/profile/availability: `{profile: {account_id, availability}}`. */
export const AvailabilityUpdateSchema = unwrapped(
  "profile",
  z
    .object({
      account_id: AccountIdField,
      availability: z.preprocess(
        (v) => (v === "available" ? "online" : v),
        z.enum(AVAILABILITIES).openapi({
          example: "busy",
          description:
            "What the agent chooses. `busy` and `offline` stand whatever their sockets; `online` shows online while a socket of theirs is open (or always, with `auto_offline` off).",
        }),
      ),
    })
    .openapi("AvailabilityUpdate"),
);

/** Chatwoot's POST /api/v1/profile/auto_offline: `{profile: {account_id, auto_offline}}`. */
export const AutoOfflineUpdateSchema = unwrapped(
  "profile",
  z
    .object({
      account_id: AccountIdField,
      auto_offline: z.boolean().default(false).openapi({
        description:
          "Whether an online agent shows offline while no socket of theirs is open (Chatwoot's default: off when left out).",
      }),
    })
    .openapi("AutoOfflineUpdate"),
);

export type AvailabilityUpdate = z.infer<typeof AvailabilityUpdateSchema>;
export type AutoOfflineUpdate = z.infer<typeof AutoOfflineUpdateSchema>;

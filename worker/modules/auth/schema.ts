import { z } from "@hono/zod-openapi";
import { UserSchema } from "../users/schema";

/** What users choose for themselves: long enough to resist guessing, short enough to hash. */
export const NewPasswordSchema = z
  .string()
  .min(8)
  .max(128)
  .openapi({ description: "8 to 128 characters; stored as a salted PBKDF2 hash." });

const email = z.string().trim().toLowerCase().min(1).max(255).openapi({ example: "jane@acme.inc" });

export const SignInSchema = z
  .object({ email, password: z.string().min(1).max(128) })
  .openapi("SignIn");

export const SignInResultSchema = z
  .object({ data: UserSchema })
  .openapi("SignInResult", { description: "devise_token_auth's shape: the user, under `data`." });

export const SsoSignInSchema = z
  .object({
    sso_auth_token: z
      .string()
      .min(1)
      .max(128)
      .openapi({ description: "The token of a platform's sign-in link (its URL fragment)" }),
  })
  .openapi("SsoSignIn");

export const SsoLinkSchema = z
  .object({
    url: z.string().openapi({
      description: "Signs the user in to the agents' app, once, within 5 minutes",
      example:
        "https://chat.example.com/app/login#sso_auth_token=3mJr7AoUXx2Wqd1ZkPd4Tv6Yh8fsLbNcQe5RaiBjKuG",
    }),
  })
  .openapi("SsoLink");

export const PasswordResetRequestSchema = z
  .object({
    email,
    /** Chatwoot's clients send where their dashboard lives; Parley mails its own page. */
    redirect_url: z.string().max(2048).optional(),
  })
  .openapi("PasswordResetRequest");

const confirmed = <T extends { password: string; password_confirmation?: string }>(v: T) =>
  v.password_confirmation === undefined || v.password_confirmation === v.password;

export const PasswordResetSchema = z
  .object({
    reset_password_token: z.string().min(1).max(128),
    password: NewPasswordSchema,
    password_confirmation: z.string().max(128).optional(),
  })
  .refine(confirmed, { path: ["password_confirmation"], message: "doesn't match password" })
  .openapi("PasswordReset");

export const AuthMessageSchema = z
  .object({ success: z.literal(true), message: z.string() })
  .openapi("AuthMessage");

/** The set-password page's form (application/x-www-form-urlencoded). */
export const PasswordFormSchema = z.object({
  reset_password_token: z.string().max(128).optional(),
  password: z.string().max(1024).optional(),
  password_confirmation: z.string().max(1024).optional(),
});

/** The "send me a new link" form: the API's email rule. */
export const NewLinkFormSchema = z.object({ email });

export const InvitationFormSchema = z.object({
  invitation_token: z.string().max(128).optional(),
});

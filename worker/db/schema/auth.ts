import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt } from "./_common";
import { accounts } from "./accounts";
import { users } from "./users";

export type LinkPurpose = "set_password" | "join_account" | "sso_login";

/**
 * One-time links mailed to users: setting a password (a new agent's invitation, a reset) and
 * joining another account (an existing user invited by email); and the platform's sign-in links
 * (sso_login: `GET /platform/api/v1/users/{id}/login`, handed to the platform, not mailed). Only the token's SHA-256 is
 * kept, so a read of the table cannot be replayed as a link.
 */
export const oneTimeLinks = sqliteTable(
  "one_time_links",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    purpose: text("purpose").$type<LinkPurpose>().notNull(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** join_account: the account the user is invited to, with the role the inviter chose. */
    accountId: integer("account_id").references(() => accounts.id, { onDelete: "cascade" }),
    role: text("role", { enum: ["agent", "administrator"] }),
    inviterId: integer("inviter_id").references(() => users.id, { onDelete: "set null" }),
    tokenHash: text("token_hash").notNull(),
    expiresAt: integer("expires_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("one_time_links_token_hash_unique").on(t.tokenHash),
    index("one_time_links_user_purpose_idx").on(t.userId, t.purpose, t.accountId),
  ],
);

export type OneTimeLinkRow = typeof oneTimeLinks.$inferSelect;

/**
 * Failed sign-ins and wrong current passwords, by email and client address, kept for the
 * throttle's window (modules/auth/throttle.ts): it counts the addresses an email failed from.
 * The email is stored lower-cased as typed, whether or not a user has it.
 */
export const signInFailures = sqliteTable(
  "sign_in_failures",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    email: text("email").notNull(),
    ip: text("ip").notNull(),
    at: integer("at").notNull(),
  },
  (t) => [
    index("sign_in_failures_email_at_idx").on(t.email, t.at),
    index("sign_in_failures_at_idx").on(t.at),
  ],
);

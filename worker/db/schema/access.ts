import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, updatedAt } from "./_common";

export type TokenOwnerType = "User" | "AgentBot" | "PlatformApp";
export type PermissibleType = "Account" | "User" | "AgentBot";

/** One token per owner, as in Chatwoot; the token is shown to its owner, so it is kept as is. */
export const accessTokens = sqliteTable(
  "access_tokens",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    ownerType: text("owner_type").$type<TokenOwnerType>().notNull(),
    ownerId: integer("owner_id").notNull(),
    token: text("token").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("access_tokens_token_unique").on(t.token),
    uniqueIndex("access_tokens_owner_unique").on(t.ownerType, t.ownerId),
  ],
);

export const platformApps = sqliteTable("platform_apps", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** The records a platform app created: the only ones it may see or change. */
export const platformAppPermissibles = sqliteTable(
  "platform_app_permissibles",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    platformAppId: integer("platform_app_id")
      .notNull()
      .references(() => platformApps.id, { onDelete: "cascade" }),
    permissibleType: text("permissible_type").$type<PermissibleType>().notNull(),
    permissibleId: integer("permissible_id").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("platform_app_permissibles_unique").on(
      t.platformAppId,
      t.permissibleType,
      t.permissibleId,
    ),
    index("platform_app_permissibles_target").on(t.permissibleType, t.permissibleId),
  ],
);

export type AccessTokenRow = typeof accessTokens.$inferSelect;

import { createRoute, type z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AccountEnv } from "../../http/context";
import { errorResponses } from "../../http/errors";
import { requireMember } from "../../http/middleware/require-role";
import { createRouter } from "../../http/router";
import { DeletedSchema, jsonBody, jsonContent, unwrapped } from "../../http/schemas/envelopes";
import { AccountParams } from "../../http/schemas/ids";
import { ApiError } from "../../lib/errors";
import { EMAIL_FLAGS, PUSH_FLAGS } from "./flags";
import { presentNotification } from "./presenter";
import { notificationPage, unreadCount } from "./queries";
import {
  DestroyAllQuery,
  NOTIFICATIONS_PER_PAGE,
  NotificationListQuery,
  NotificationListSchema,
  NotificationParams,
  NotificationSchema,
  NotificationSettingsSchema,
  NotificationSettingsUpdate,
  ReadAllBody,
  SnoozeBody,
  UnreadCountSchema,
} from "./schema";
import {
  notificationSettings,
  type Recipient,
  readAll,
  removeAll,
  removeNotification,
  type SettingsView,
  setRead,
  snooze,
} from "./service";

const tags = ["Notifications"];

/** Notifications are a user's own (bots are refused by requireMember before this). */
function recipient(c: Context<AccountEnv>): Recipient {
  const actor = c.var.actor;
  if (actor.kind !== "user") {
    throw new ApiError("not_authorized_for_bots");
  }
  return { deps: c.var.deps, accountId: c.var.account.id, userId: actor.user.id };
}

const Ok = jsonContent(DeletedSchema, "Done");
const One = jsonContent(NotificationSchema, "The notification");

// Chatwoot: GET /api/v1/accounts/{a}/notifications
const list = createRoute({
  method: "get",
  path: "/notifications",
  tags,
  summary: "The caller's notifications, latest first (15 a page), with the unread count",
  middleware: [requireMember()] as const,
  request: { params: AccountParams, query: NotificationListQuery },
  responses: { 200: jsonContent(NotificationListSchema, "A page"), ...errorResponses },
});

// Chatwoot: GET /api/v1/accounts/{a}/notifications/unread_count (a bare number)
const unread = createRoute({
  method: "get",
  path: "/notifications/unread_count",
  tags,
  summary: "How many of the caller's notifications are unread",
  middleware: [requireMember()] as const,
  request: { params: AccountParams },
  responses: { 200: jsonContent(UnreadCountSchema, "The count"), ...errorResponses },
});

// Chatwoot: POST /api/v1/accounts/{a}/notifications/read_all
const markAll = createRoute({
  method: "post",
  path: "/notifications/read_all",
  tags,
  summary: "Mark every notification read (or only one conversation's)",
  middleware: [requireMember()] as const,
  request: { params: AccountParams, body: jsonBody(ReadAllBody, false) },
  responses: { 200: Ok, ...errorResponses },
});

// Chatwoot: POST /api/v1/accounts/{a}/notifications/destroy_all
const destroyAll = createRoute({
  method: "post",
  path: "/notifications/destroy_all",
  tags,
  summary: "Delete the caller's notifications (?type=read: the read ones)",
  middleware: [requireMember()] as const,
  request: { params: AccountParams, query: DestroyAllQuery },
  responses: { 200: Ok, ...errorResponses },
});

// Chatwoot: PATCH /api/v1/accounts/{a}/notifications/{id}
const markRead = createRoute({
  method: "patch",
  path: "/notifications/{id}",
  tags,
  summary: "Mark a notification read",
  middleware: [requireMember()] as const,
  request: { params: NotificationParams },
  responses: { 200: One, ...errorResponses },
});

// Chatwoot: POST /api/v1/accounts/{a}/notifications/{id}/unread
const markUnread = createRoute({
  method: "post",
  path: "/notifications/{id}/unread",
  tags,
  summary: "Mark a notification unread",
  middleware: [requireMember()] as const,
  request: { params: NotificationParams },
  responses: { 200: One, ...errorResponses },
});

// Chatwoot: POST /api/v1/accounts/{a}/notifications/{id}/snooze
const snoozeOne = createRoute({
  method: "post",
  path: "/notifications/{id}/snooze",
  tags,
  summary: "Hide a notification until a time",
  middleware: [requireMember()] as const,
  request: { params: NotificationParams, body: jsonBody(SnoozeBody) },
  responses: { 200: One, ...errorResponses },
});

// Chatwoot: DELETE /api/v1/accounts/{a}/notifications/{id}
const remove = createRoute({
  method: "delete",
  path: "/notifications/{id}",
  tags,
  summary: "Delete a notification",
  middleware: [requireMember()] as const,
  request: { params: NotificationParams },
  responses: { 200: Ok, ...errorResponses },
});

// Chatwoot: GET /api/v1/accounts/{a}/notification_settings
const settings = createRoute({
  method: "get",
  path: "/notification_settings",
  tags,
  summary: "The caller's notification settings in this account",
  middleware: [requireMember()] as const,
  request: { params: AccountParams },
  responses: { 200: jsonContent(NotificationSettingsSchema, "The settings"), ...errorResponses },
});

// Chatwoot: PATCH /api/v1/accounts/{a}/notification_settings
const updateSettings = createRoute({
  method: "patch",
  path: "/notification_settings",
  tags,
  summary: "Choose which notifications the caller gets by email and by push",
  middleware: [requireMember()] as const,
  request: {
    params: AccountParams,
    body: jsonBody(unwrapped("notification_settings", NotificationSettingsUpdate)),
  },
  responses: { 200: jsonContent(NotificationSettingsSchema, "The settings"), ...errorResponses },
});

const presentSettings = (r: Recipient, row: SettingsView) => ({
  id: row.id,
  account_id: r.accountId,
  user_id: r.userId,
  all_email_flags: EMAIL_FLAGS,
  selected_email_flags: row.emailFlags,
  all_push_flags: PUSH_FLAGS,
  selected_push_flags: row.pushFlags,
});

const empty = {} as z.infer<typeof DeletedSchema>;

export const notificationAccountRoutes = createRouter<AccountEnv>()
  .openapi(list, async (c) => {
    const r = recipient(c);
    const page = c.req.valid("query").page ?? 1;
    const offset = (page - 1) * NOTIFICATIONS_PER_PAGE;
    const now = r.deps.now();
    const found = await notificationPage(
      r.deps.db,
      r.accountId,
      r.userId,
      now,
      NOTIFICATIONS_PER_PAGE,
      offset,
    );
    const meta = { unread_count: found.unread, count: found.count, current_page: page };
    return c.json({ data: { meta, payload: found.rows.map(presentNotification) } }, 200);
  })
  .openapi(unread, async (c) => {
    const r = recipient(c);
    return c.json(await unreadCount(r.deps.db, r.accountId, r.userId, r.deps.now()), 200);
  })
  .openapi(markAll, async (c) => {
    const body = c.req.valid("json") ?? {};
    await readAll(recipient(c), body.primary_actor_id);
    return c.json(empty, 200);
  })
  .openapi(destroyAll, async (c) => {
    await removeAll(recipient(c), c.req.valid("query").type === "read");
    return c.json(empty, 200);
  })
  .openapi(markRead, async (c) => {
    return c.json(
      presentNotification(await setRead(recipient(c), c.req.valid("param").id, true)),
      200,
    );
  })
  .openapi(markUnread, async (c) => {
    return c.json(
      presentNotification(await setRead(recipient(c), c.req.valid("param").id, false)),
      200,
    );
  })
  .openapi(snoozeOne, async (c) => {
    const row = await snooze(
      recipient(c),
      c.req.valid("param").id,
      c.req.valid("json").snoozed_until,
    );
    return c.json(presentNotification(row), 200);
  })
  .openapi(remove, async (c) => {
    await removeNotification(recipient(c), c.req.valid("param").id);
    return c.json(empty, 200);
  })
  .openapi(settings, async (c) => {
    const r = recipient(c);
    return c.json(presentSettings(r, await notificationSettings(r)), 200);
  })
  .openapi(updateSettings, async (c) => {
    const r = recipient(c);
    return c.json(presentSettings(r, await notificationSettings(r, c.req.valid("json"))), 200);
  });

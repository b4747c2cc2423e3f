import { z } from "@hono/zod-openapi";
import { NOTIFICATION_TYPES } from "../../db/schema";
import { accountParams, IdParam } from "../../http/schemas/ids";
import { PageNumber } from "../../http/schemas/pagination";
import { EMAIL_FLAGS, PUSH_FLAGS } from "./flags";

export const NotificationParams = accountParams({
  id: IdParam.openapi({ param: { name: "id", in: "path" }, type: "integer", example: "1" }),
});

export const NOTIFICATIONS_PER_PAGE = 15;

const ActorSchema = z
  .object({ id: z.number().int(), type: z.string() })
  .catchall(z.unknown())
  .nullable();

export const NotificationSchema = z
  .object({
    id: z.number().int(),
    account_id: z.number().int(),
    user_id: z.number().int(),
    notification_type: z.enum(NOTIFICATION_TYPES),
    push_message_title: z.string(),
    primary_actor_type: z.literal("Conversation"),
    /** The conversation's display id, as every conversation path uses. */
    primary_actor_id: z.number().int(),
    primary_actor: z.object({
      id: z.number().int(),
      inbox_id: z.number().int(),
      status: z.string(),
      assignee_id: z.number().int().nullable(),
    }),
    secondary_actor_type: z.string().nullable(),
    secondary_actor_id: z.number().int().nullable(),
    secondary_actor: ActorSchema,
    read_at: z.number().int().nullable(),
    snoozed_until: z.number().int().nullable(),
    last_activity_at: z.number().int(),
    created_at: z.number().int(),
    meta: z.record(z.string(), z.unknown()),
  })
  .openapi("Notification");

export const NotificationListSchema = z
  .object({
    data: z.object({
      meta: z.object({
        unread_count: z.number().int(),
        count: z.number().int(),
        current_page: z.number().int(),
      }),
      payload: z.array(NotificationSchema),
    }),
  })
  .openapi("NotificationList");

export const NotificationListQuery = z.object({ page: PageNumber });

export const UnreadCountSchema = z.number().int().openapi("NotificationUnreadCount");

export const ReadAllBody = z
  .object({
    primary_actor_type: z.literal("Conversation").optional(),
    primary_actor_id: z
      .number()
      .int()
      .positive()
      .max(Number.MAX_SAFE_INTEGER)
      .optional()
      .openapi({ description: "Only this conversation's (display id)" }),
  })
  .openapi("NotificationReadAll");

export const SnoozeBody = z
  .object({
    snoozed_until: z
      .union([z.number().int().min(0).max(253_402_300_799), z.string().max(64)])
      .openapi({ description: "Unix seconds or an ISO 8601 time", example: 1767225600 }),
  })
  .openapi("NotificationSnooze");

export const DestroyAllQuery = z.object({
  type: z.enum(["read", "all"]).optional().openapi({ description: "read: only the read ones" }),
});

const EmailFlag = z.enum(EMAIL_FLAGS as [string, ...string[]]);
const PushFlag = z.enum(PUSH_FLAGS as [string, ...string[]]);

export const NotificationSettingsSchema = z
  .object({
    /** null until the user saves settings (the defaults apply). */
    id: z.number().int().nullable(),
    account_id: z.number().int(),
    user_id: z.number().int(),
    all_email_flags: z.array(z.string()),
    selected_email_flags: z.array(z.string()),
    all_push_flags: z.array(z.string()),
    selected_push_flags: z.array(z.string()),
  })
  .openapi("NotificationSettings");

export const NotificationSettingsUpdate = z
  .object({
    selected_email_flags: z.array(EmailFlag).max(EMAIL_FLAGS.length).optional(),
    selected_push_flags: z.array(PushFlag).max(PUSH_FLAGS.length).optional(),
  })
  .openapi("NotificationSettingsUpdate");

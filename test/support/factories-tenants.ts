import { env } from "cloudflare:test";
import * as t from "../../worker/db/schema";
import { secureToken } from "../../worker/lib/ids";
import {
  addInboxMember,
  addToAccount,
  attachBot,
  createAccount,
  createAgent,
  createAgentBot,
  createInbox,
  createPlatformApp,
  createTeam,
  createUser,
  db,
  permit,
} from "./factories";
import { createRule } from "./factories-automation";
import { createDefinition, tagContact } from "./factories-contacts";
import {
  createContact,
  createContactInbox,
  createConversation,
  insertMessage,
} from "./factories-conversations";
import { addTeamMember, createLabel } from "./factories-teams";

/** Everything one tenant has: one of each record, its people and its credentials. */
export async function createTenant(marker: string) {
  const app = await createPlatformApp();
  const account = await createAccount({ name: `Account ${marker}` });
  await permit(app.id, "Account", account.id);
  const admin = await createUser({ name: `Admin ${marker}` });
  await addToAccount(account.id, admin.id, "administrator");
  const agent = await createAgent(account.id);
  const outsider = await createAgent(account.id);
  const inbox = await createInbox(account.id, { name: `Inbox ${marker}` });
  const otherInbox = await createInbox(account.id);
  await addInboxMember(inbox.id, agent.id);
  await addInboxMember(otherInbox.id, outsider.id);
  const bot = await createAgentBot({ accountId: account.id, name: `Bot ${marker}` });
  await attachBot(account.id, inbox.id, bot.id);
  const otherBot = await createAgentBot({ accountId: account.id });
  await attachBot(account.id, otherInbox.id, otherBot.id);
  const team = await createTeam(account.id, { name: `team ${marker}` });
  await addTeamMember(team.id, agent.id);
  const label = await createLabel(account.id, { title: `label-${marker}` });
  const definition = await createDefinition(account.id, {
    attributeDisplayName: `Attribute ${marker}`,
  });
  const rule = await createRule(account.id, { name: `Rule ${marker}` });
  const contact = await createContact(account.id, { name: `Contact ${marker}` });
  await tagContact(contact.id, [label.title]);
  const contactInbox = await createContactInbox(contact.id, inbox.id);
  const conversation = await createConversation(account.id, inbox.id, {
    contactId: contact.id,
    contactInboxId: contactInbox.id,
    labels: [label.title],
  });
  const message = await insertMessage(conversation, { content: `Message ${marker}` });
  const [webhook] = await db()
    .insert(t.webhooks)
    .values({
      accountId: account.id,
      url: `https://hooks.example/${marker}`,
      name: `Webhook ${marker}`,
      subscriptions: ["message_created"],
      secret: `whsec_${secureToken()}`,
    })
    .returning();
  if (!webhook) {
    throw new Error("webhook not created");
  }
  const [delivery] = await db()
    .insert(t.webhookDeliveries)
    .values({
      accountId: account.id,
      targetType: "webhook",
      targetId: webhook.id,
      eventId: 1_000_000 + message.id,
      event: "message_created",
      deliveryId: crypto.randomUUID(),
      url: webhook.url,
      body: JSON.stringify({ content: `Message ${marker}` }),
      status: "failed",
    })
    .returning();
  if (!delivery) {
    throw new Error("delivery not created");
  }
  const [cannedResponse] = await db()
    .insert(t.cannedResponses)
    .values({ accountId: account.id, shortCode: `canned-${marker}`, content: `Canned ${marker}` })
    .returning();
  const [customFilter] = await db()
    .insert(t.customFilters)
    .values({ accountId: account.id, userId: admin.id, name: `Filter ${marker}`, query: {} })
    .returning();
  const [contactNote] = await db()
    .insert(t.contactNotes)
    .values({
      accountId: account.id,
      contactId: contact.id,
      userId: admin.id,
      content: `Note ${marker}`,
    })
    .returning();
  const [macro] = await db()
    .insert(t.macros)
    .values({
      accountId: account.id,
      name: `Macro ${marker}`,
      visibility: "global",
      createdById: admin.id,
      updatedById: admin.id,
      actions: [{ action_name: "add_label", action_params: [`label-${marker}`] }],
    })
    .returning();
  const [dashboardApp] = await db()
    .insert(t.dashboardApps)
    .values({
      accountId: account.id,
      userId: admin.id,
      title: `App ${marker}`,
      content: [{ type: "frame", url: `https://${marker}.example.com/app` }],
    })
    .returning();
  const [notification] = await db()
    .insert(t.notifications)
    .values({
      accountId: account.id,
      userId: admin.id,
      notificationType: "conversation_mention",
      conversationId: conversation.id,
      sourceEventId: 0,
      lastActivityAt: 1,
    })
    .returning();
  const platformUser = await createUser({ name: `User ${marker}` });
  await permit(app.id, "User", platformUser.id);
  // A system bot (no account): every account sees those and may attach them (Chatwoot), so
  // its name carries no marker; only its app may change it.
  const platformBot = await createAgentBot({ name: "System bot" });
  await permit(app.id, "AgentBot", platformBot.id);
  return {
    app,
    account,
    admin,
    agent,
    outsider,
    inbox,
    otherInbox,
    bot,
    otherBot,
    team,
    label,
    definition,
    rule,
    contact,
    contactInbox,
    conversation,
    message,
    webhook: webhook,
    delivery,
    cannedResponse: cannedResponse as t.CannedResponseRow,
    customFilter: customFilter as t.CustomFilterRow,
    contactNote: contactNote as t.ContactNoteRow,
    notification: notification as t.NotificationRow,
    macro: macro as t.MacroRow,
    dashboardApp: dashboardApp as t.DashboardAppRow,
    platformUser,
    platformBot,
  };
}
export type Tenant = Awaited<ReturnType<typeof createTenant>>;

/** The value of a path parameter for a tenant's records, by the segment it follows. */
export function valueFor(w: Tenant, path: string, param: string): string | undefined {
  const before = path.split(`/{${param}}`)[0]?.split("/").pop();
  const platform = path.startsWith("/platform/");
  const key = `${before}/${param}`;
  const table: Record<string, number | string> = {
    "accounts/account_id": w.account.id,
    "accounts/id": w.account.id,
    "agents/id": w.agent.id,
    "inboxes/id": w.inbox.id,
    "inbox_members/inbox_id": w.inbox.id,
    "teams/team_id": w.team.id,
    "labels/id": w.label.id,
    "agent_bots/id": platform ? w.platformBot.id : w.bot.id,
    "custom_attribute_definitions/id": w.definition.id,
    "automation_rules/id": w.rule.id,
    "conversations/conversation_id": w.conversation.displayId,
    "messages/message_id": w.message.id,
    "contacts/contact_id": w.contact.id,
    "contacts/id": w.contact.id,
    "webhooks/webhook_id": w.webhook.id,
    // A hook of the webhook app is the account's webhook (modules/integrations).
    "hooks/hook_id": w.webhook.id,
    "deliveries/delivery_id": w.delivery.id,
    "users/id": w.platformUser.id,
    "canned_responses/id": w.cannedResponse.id,
    "custom_filters/custom_filter_id": w.customFilter.id,
    "notes/id": w.contactNote.id,
    "notifications/id": w.notification.id,
    "macros/id": w.macro.id,
    "dashboard_apps/id": w.dashboardApp.id,
    "inboxes/inbox_identifier": w.inbox.inboxIdentifier,
    "contacts/contact_identifier": w.contactInbox.sourceId,
  };
  const value = table[key];
  return value === undefined ? undefined : String(value);
}

export const fill = (path: string, values: Record<string, string>) =>
  path.replace(/\{([^}]+)\}/g, (_, p: string) => {
    const v = values[p];
    if (v === undefined) {
      throw new Error(`no value for {${p}} in ${path}`);
    }
    return encodeURIComponent(v);
  });

/** Everything of a tenant's that a request could change, as stored. */
export async function tenantState(victim: Tenant) {
  const a = victim.account.id;
  const rows = async (sql: string, ...binds: unknown[]) =>
    (
      await env.DB.prepare(sql)
        .bind(...binds)
        .all()
    ).results;
  const byAccount = [
    "contacts",
    "conversations",
    "messages",
    "labels",
    "teams",
    "inboxes",
    "webhooks",
    "webhook_deliveries",
    "automation_rules",
    "agent_bots",
    "custom_attribute_definitions",
    "account_users",
    "agent_bot_inboxes",
    "event_outbox",
    "canned_responses",
    "custom_filters",
    "contact_notes",
    "notifications",
    "notification_settings",
    "conversation_participants",
    "mentions",
    "audit_logs",
    "macros",
    "dashboard_apps",
  ];
  const state: Record<string, unknown> = {};
  for (const table of byAccount) {
    state[table] = await rows(`SELECT * FROM ${table} WHERE account_id = ? ORDER BY id`, a);
  }
  state.account = await rows("SELECT * FROM accounts WHERE id = ?", a);
  const userIds = [victim.admin.id, victim.agent.id, victim.outsider.id, victim.platformUser.id];
  state.users = await rows(`SELECT * FROM users WHERE id IN (${userIds.join(",")}) ORDER BY id`);
  state.tokens = await rows(
    `SELECT * FROM access_tokens WHERE (owner_type = 'User' AND owner_id IN (${userIds.join(",")}))
       OR (owner_type = 'AgentBot' AND owner_id IN (?, ?, ?)) ORDER BY id`,
    victim.bot.id,
    victim.otherBot.id,
    victim.platformBot.id,
  );
  state.platformBot = await rows("SELECT * FROM agent_bots WHERE id = ?", victim.platformBot.id);
  state.contactInboxes = await rows(
    "SELECT * FROM contact_inboxes WHERE inbox_id IN (?, ?) ORDER BY id",
    victim.inbox.id,
    victim.otherInbox.id,
  );
  state.inboxMembers = await rows(
    "SELECT * FROM inbox_members WHERE inbox_id IN (?, ?) ORDER BY id",
    victim.inbox.id,
    victim.otherInbox.id,
  );
  state.teamMembers = await rows("SELECT * FROM team_members WHERE team_id = ?", victim.team.id);
  state.contactLabels = await rows(
    "SELECT * FROM contact_labels WHERE contact_id = ?",
    victim.contact.id,
  );
  state.conversationLabels = await rows(
    "SELECT * FROM conversation_labels WHERE conversation_id = ?",
    victim.conversation.id,
  );
  state.grants = await rows(
    "SELECT * FROM platform_app_permissibles WHERE platform_app_id = ? ORDER BY id",
    victim.app.id,
  );
  return state;
}

import type { AccountEnv } from "../http/context";
import { accountScope } from "../http/middleware/account-scope";
import { authUser } from "../http/middleware/auth-user";
import { createRouter } from "../http/router";
import { accountRoutes } from "../modules/accounts/routes.account";
import { agentBotAccountRoutes } from "../modules/agent-bots/routes.account";
import { agentAccountRoutes } from "../modules/agents/routes.account";
import { auditLogAccountRoutes } from "../modules/audit-logs/routes.account";
import { automationRuleAccountRoutes } from "../modules/automation-rules/routes.account";
import { bulkActionAccountRoutes } from "../modules/bulk-actions/routes.account";
import { cannedResponseAccountRoutes } from "../modules/canned-responses/routes.account";
import { contactNoteAccountRoutes } from "../modules/contact-notes/routes.account";
import { contactAccountRoutes } from "../modules/contacts/routes.account";
import { contactMergeRoutes } from "../modules/contacts/routes.merge.account";
import { contactRelatedRoutes } from "../modules/contacts/routes.related.account";
import {
  conversationAccountRoutes,
  conversationListRoutes,
} from "../modules/conversations/routes.account";
import { conversationActionRoutes } from "../modules/conversations/routes.actions.account";
import { conversationContactRoutes } from "../modules/conversations/routes.contact.account";
import { conversationFilterRoutes } from "../modules/conversations/routes.filter.account";
import { conversationLabelRoutes } from "../modules/conversations/routes.labels.account";
import { csatAccountRoutes } from "../modules/csat/routes.account";
import { customAttributeAccountRoutes } from "../modules/custom-attributes/routes.account";
import { customFilterAccountRoutes } from "../modules/custom-filters/routes.account";
import { helpCenterAccountRoutes } from "../modules/help-center/routes.account";
import { inboxAccountRoutes } from "../modules/inboxes/routes.account";
import { inboxMemberAccountRoutes } from "../modules/inboxes/routes.members.account";
import { labelAccountRoutes } from "../modules/labels/routes.account";
import { liveAccountRoutes } from "../modules/live/routes.account";
import { macroAccountRoutes } from "../modules/macros/routes.account";
import { messageAccountRoutes } from "../modules/messages/routes.account";
import { notificationAccountRoutes } from "../modules/notifications/routes.account";
import { participantAccountRoutes } from "../modules/notifications/routes.participants.account";
import { reportingEventRoutes } from "../modules/reports/routes.events.account";
import { teamAccountRoutes } from "../modules/teams/routes.account";
import { teamMemberAccountRoutes } from "../modules/teams/routes.members.account";
import { webhookAccountRoutes } from "../modules/webhooks/routes.account";

const BASE = "/api/v1/accounts/:account_id";

/** The account API: every route below runs as a member (user or bot) of `:account_id`. */
export const accountApi = createRouter<AccountEnv>();
accountApi.use(`${BASE}/*`, authUser, accountScope);
accountApi.route(BASE, accountRoutes);
accountApi.route(BASE, agentAccountRoutes);
accountApi.route(BASE, inboxAccountRoutes);
accountApi.route(BASE, inboxMemberAccountRoutes);
accountApi.route(BASE, teamAccountRoutes);
accountApi.route(BASE, teamMemberAccountRoutes);
accountApi.route(BASE, labelAccountRoutes);
accountApi.route(BASE, agentBotAccountRoutes);
accountApi.route(BASE, customAttributeAccountRoutes);
accountApi.route(BASE, automationRuleAccountRoutes);
accountApi.route(BASE, messageAccountRoutes);
// `/conversations/meta` and `/conversations/filter` before `/conversations/{conversation_id}`.
accountApi.route(BASE, conversationListRoutes);
accountApi.route(BASE, conversationFilterRoutes);
accountApi.route(BASE, conversationAccountRoutes);
accountApi.route(BASE, conversationActionRoutes);
accountApi.route(BASE, conversationLabelRoutes);
accountApi.route(BASE, conversationContactRoutes);
accountApi.route(BASE, contactAccountRoutes);
accountApi.route(BASE, contactRelatedRoutes);
accountApi.route(BASE, liveAccountRoutes);
accountApi.route(BASE, webhookAccountRoutes);
accountApi.route(BASE, helpCenterAccountRoutes);
accountApi.route(BASE, cannedResponseAccountRoutes);
accountApi.route(BASE, customFilterAccountRoutes);
accountApi.route(BASE, contactMergeRoutes);
accountApi.route(BASE, contactNoteAccountRoutes);
accountApi.route(BASE, notificationAccountRoutes);
accountApi.route(BASE, participantAccountRoutes);
accountApi.route(BASE, reportingEventRoutes);
accountApi.route(BASE, auditLogAccountRoutes);
accountApi.route(BASE, macroAccountRoutes);
accountApi.route(BASE, csatAccountRoutes);
accountApi.route(BASE, bulkActionAccountRoutes);

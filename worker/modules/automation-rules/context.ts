import type { ConversationRow, RuleRow } from "../../db/schema";
import type { Mailer } from "../../lib/mail";
import type { MessageScope } from "../messages/service";

/**
 * What one action works with: who performs it (`scope`: a rule acting as an administrator, or
 * the agent running a macro) and the conversation as it is now.
 */
export type ActionContext = {
  scope: MessageScope;
  conversation: ConversationRow;
  /**
   * The same for this action of this run whenever the run is repeated (a queue redelivery):
   * messages carry it as their idempotency key, so they are written once.
   */
  key: string;
  /** content_attributes of the messages the actions send (`automation_rule_id` for a rule). */
  messageAttributes: Record<string, unknown>;
  mailer: Mailer;
  /** Set when an automation rule runs on an outbox event (send_webhook_event needs both). */
  rule?: { row: RuleRow; eventId: number };
};

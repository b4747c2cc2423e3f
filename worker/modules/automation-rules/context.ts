import type { ConversationRow, RuleRow } from "../../db/schema";
import type { Mailer } from "../../lib/mail";
import type { MessageScope } from "../messages/service";

/** What one action works with: the rule acting as an administrator, the fresh conversation. */
export type ActionContext = {
  scope: MessageScope;
  rule: RuleRow;
  conversation: ConversationRow;
  /** The outbox event the rule runs on. */
  eventId: number;
  /**
   * The same for this action of this rule on this event, whenever the queue hands the event
   * over again: messages carry it as their idempotency key, so they are written once.
   */
  key: string;
  mailer: Mailer;
};

import type { RuleActionName } from "../automation-rules/actions";

/**
 * Chatwoot's Macro::ACTIONS_ATTRS: the automation actions an agent may put in a macro (no
 * webhook, no team email, no status-only shortcuts beyond these).
 */
export const MACRO_ACTIONS: ReadonlySet<RuleActionName> = new Set<RuleActionName>([
  "send_message",
  "add_label",
  "assign_team",
  "assign_agent",
  "mute_conversation",
  "change_status",
  "remove_label",
  "remove_assigned_team",
  "resolve_conversation",
  "snooze_conversation",
  "change_priority",
  "send_email_transcript",
  "send_attachment",
  "add_private_note",
]);

/** What an action's `action_params` hold. */
export type ParamKind =
  | "none"
  | "user"
  | "team"
  | "labels"
  | "text"
  | "status"
  | "priority"
  | "url"
  | "email_to_team"
  | "emails"
  | "attachments";

/** Chatwoot's automation actions (add_sla, an enterprise feature, is not offered). */
export const RULE_ACTIONS = {
  assign_agent: "user",
  assign_team: "team",
  remove_assigned_agent: "none",
  remove_assigned_team: "none",
  add_label: "labels",
  remove_label: "labels",
  send_message: "text",
  add_private_note: "text",
  change_status: "status",
  change_priority: "priority",
  mute_conversation: "none",
  snooze_conversation: "none",
  resolve_conversation: "none",
  open_conversation: "none",
  pending_conversation: "none",
  send_webhook_event: "url",
  send_email_to_team: "email_to_team",
  send_email_transcript: "emails",
  send_attachment: "attachments",
} as const satisfies Record<string, ParamKind>;

export type RuleActionName = keyof typeof RULE_ACTIONS;

export const isRuleAction = (name: string): name is RuleActionName =>
  Object.hasOwn(RULE_ACTIONS, name);

/** "nil" (and 0 for teams) unassigns, as Chatwoot's dashboard sends it. */
export const isNil = (value: unknown) =>
  value === null || value === "nil" || value === "" || value === 0 || value === "0";

const EMAIL = /^[^\s@,]+@[^\s@,]+\.[^\s@,]+$/;

/** send_email_transcript's one param: "a@x.com, b@y.com". */
export function emailList(value: unknown): string[] | null {
  if (typeof value !== "string") {
    return null;
  }
  const emails = value
    .split(",")
    .map((e) => e.trim())
    .filter((e) => e !== "");
  return emails.length > 0 && emails.length <= 20 && emails.every((e) => EMAIL.test(e))
    ? emails
    : null;
}

/** send_email_to_team's one param. */
export type TeamEmail = { team_ids: number[]; message: string };

import type {
  AccountRow,
  ConversationPriority,
  ConversationStatus,
  RuleRow,
} from "../../db/schema";
import type { Deps } from "../../events/deps";
import type { Mailer } from "../../lib/mail";
import { findById } from "../conversations/queries";
import {
  assign,
  listLabels,
  mute,
  setLabels,
  setPriority,
  toggleStatus,
} from "../conversations/service.actions";
import { createMessage, type MessageScope } from "../messages/service";
import { isNil, isRuleAction, type RuleActionName } from "./actions";
import type { ActionContext } from "./context";
import { emailTeams, emailTranscript, postWebhookEvent, sendAttachments } from "./notify";
import type { RuleActionInput } from "./schema";

type Handler = (ctx: ActionContext, params: unknown[]) => Promise<unknown>;

const idOrNull = (value: unknown) => (isNil(value) ? null : Number(value));

const status =
  (to: ConversationStatus): Handler =>
  ({ scope, conversation }) =>
    toggleStatus(scope, conversation, { status: to });

const message =
  (isPrivate: boolean): Handler =>
  ({ scope, conversation, rule, key }, [content]) =>
    createMessage(scope, conversation, {
      content: String(content),
      messageType: "outgoing",
      private: isPrivate,
      contentAttributes: { automation_rule_id: rule.id },
      idempotencyKey: key,
    });

async function changeLabels(ctx: ActionContext, add: string[], remove: string[]) {
  const current = await listLabels(ctx.scope, ctx.conversation);
  const next = [...current.filter((l) => !remove.includes(l)), ...add];
  return setLabels(ctx.scope, ctx.conversation, next);
}

/** Chatwoot's ActionService methods, through the same services the API uses. */
const HANDLERS: Record<RuleActionName, Handler> = {
  assign_agent: ({ scope, conversation }, [id]) =>
    assign(scope, conversation, { assignee_id: idOrNull(id) }),
  assign_team: ({ scope, conversation }, [id]) =>
    assign(scope, conversation, { team_id: idOrNull(id) }),
  remove_assigned_agent: ({ scope, conversation }) =>
    assign(scope, conversation, { assignee_id: null }),
  remove_assigned_team: ({ scope, conversation }) => assign(scope, conversation, { team_id: null }),
  add_label: (ctx, labels) => changeLabels(ctx, labels.map(String), []),
  remove_label: (ctx, labels) => changeLabels(ctx, [], labels.map(String)),
  send_message: message(false),
  add_private_note: message(true),
  change_status: (ctx, [to]) => status(to as ConversationStatus)(ctx, []),
  change_priority: ({ scope, conversation }, [priority]) =>
    setPriority(scope, conversation, isNil(priority) ? null : (priority as ConversationPriority)),
  mute_conversation: ({ scope, conversation }) => mute(scope, conversation),
  snooze_conversation: status("snoozed"),
  resolve_conversation: status("resolved"),
  open_conversation: status("open"),
  pending_conversation: status("pending"),
  send_webhook_event: postWebhookEvent,
  send_email_to_team: emailTeams,
  send_email_transcript: emailTranscript,
  send_attachment: sendAttachments,
};

export type RuleRun = {
  deps: Deps;
  account: AccountRow;
  rule: RuleRow;
  eventId: number;
  conversationId: number;
  mailer: Mailer;
  log: (entry: Record<string, unknown>) => void;
};

/**
 * Chatwoot parity (AutomationRules::ActionService): the actions in order, each on the
 * conversation as it is now, each in its own try/catch so one failure does not stop the rest.
 * The deps attribute every event to the rule, so the listener ignores them (no loops).
 */
export async function runActions(run: RuleRun): Promise<void> {
  const { deps, rule } = run;
  const scope: MessageScope = {
    deps,
    account: run.account,
    actor: { kind: "automation", ruleId: rule.id },
    role: "administrator",
    origin: deps.origin,
  };
  for (const [index, action] of (rule.actions as RuleActionInput[]).entries()) {
    try {
      const conversation = await findById(deps.db, run.conversationId);
      if (!conversation) {
        return;
      }
      if (!isRuleAction(action.action_name)) {
        throw new Error(`unknown action ${action.action_name}`);
      }
      const key = `automation:${run.eventId}:${rule.id}:${index}`;
      const ctx = { scope, rule, conversation, eventId: run.eventId, key, mailer: run.mailer };
      await HANDLERS[action.action_name](ctx, action.action_params ?? []);
    } catch (err) {
      run.log({
        level: "error",
        msg: "automation action failed",
        rule: rule.id,
        action: action.action_name,
        error: String(err),
      });
    }
  }
}

import type {
  AccountRow,
  ConversationPriority,
  ConversationStatus,
  RuleRow,
} from "../../db/schema";
import type { Deps } from "../../events/deps";
import type { Mailer } from "../../lib/mail";
import { findById } from "../conversations/queries";
import { assign, mute, setPriority, toggleStatus } from "../conversations/service.actions";
import { listLabels, setLabels } from "../conversations/service.labels";
import { createMessage, type MessageScope } from "../messages/service";
import { isNil, isRuleAction, type RuleActionName } from "./actions";
import type { ActionContext } from "./context";
import { emailTeams, emailTranscript, postWebhookEvent, sendAttachments } from "./notify";

type Handler = (ctx: ActionContext, params: unknown[]) => Promise<unknown>;

const idOrNull = (value: unknown) => (isNil(value) ? null : Number(value));

const status =
  (to: ConversationStatus): Handler =>
  ({ scope, conversation }) =>
    toggleStatus(scope, conversation, { status: to });

const message =
  (isPrivate: boolean): Handler =>
  ({ scope, conversation, messageAttributes, key }, [content]) =>
    createMessage(scope, conversation, {
      content: String(content),
      messageType: "outgoing",
      private: isPrivate,
      contentAttributes: messageAttributes,
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

/** A stored action, as rules and macros keep them (validated when saved). */
export type StoredAction = { action_name: string; action_params?: unknown[] };

/** One action that threw; the others still ran. */
export type ActionFailure = { index: number; action: string; error: string };

/** One run of a list of actions on one conversation, by a rule or by an agent's macro. */
export type ActionRun = {
  /** Who performs the actions: their events, activity messages and messages name them. */
  scope: MessageScope;
  actions: readonly StoredAction[];
  conversationId: number;
  /** Prefix of each action's idempotency key (`<key>:<index>`). */
  key: string;
  messageAttributes: Record<string, unknown>;
  rule?: ActionContext["rule"];
  mailer: Mailer;
  log: (entry: Record<string, unknown>) => void;
  /** Fields each log entry carries (`{rule: id}`, `{macro: id}`). */
  logFields: Record<string, unknown>;
};

/**
 * Chatwoot parity (ActionService and its subclasses AutomationRules::ActionService,
 * Macros::ExecutionService): the actions in order, each on the conversation as it is now, each
 * in its own try/catch so one failure does not stop the rest. Answers the failures.
 */
export async function runActions(run: ActionRun): Promise<ActionFailure[]> {
  const failures: ActionFailure[] = [];
  const { scope } = run;
  for (const [index, action] of run.actions.entries()) {
    try {
      const conversation = await findById(scope.deps.db, run.conversationId);
      if (!conversation || conversation.accountId !== scope.account.id) {
        return failures; // deleted meanwhile: nothing left to act on
      }
      if (!isRuleAction(action.action_name)) {
        throw new Error(`unknown action ${action.action_name}`);
      }
      const ctx: ActionContext = {
        scope,
        conversation,
        key: `${run.key}:${index}`,
        messageAttributes: run.messageAttributes,
        mailer: run.mailer,
        rule: run.rule,
      };
      await HANDLERS[action.action_name](ctx, action.action_params ?? []);
    } catch (err) {
      failures.push({ index, action: action.action_name, error: String(err) });
      run.log({
        level: "error",
        msg: "automation action failed",
        ...run.logFields,
        action: action.action_name,
        error: String(err),
      });
    }
  }
  return failures;
}

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
 * An automation rule's actions, performed as the rule (an administrator). The deps attribute
 * every event to the rule, so the listener ignores them (no loops).
 */
export async function runRuleActions(run: RuleRun): Promise<void> {
  const { deps, rule } = run;
  const scope: MessageScope = {
    deps,
    account: run.account,
    actor: { kind: "automation", ruleId: rule.id },
    role: "administrator",
    origin: deps.origin,
  };
  await runActions({
    scope,
    actions: rule.actions as StoredAction[],
    conversationId: run.conversationId,
    key: `automation:${run.eventId}:${rule.id}`,
    messageAttributes: { automation_rule_id: rule.id },
    rule: { row: rule, eventId: run.eventId },
    mailer: run.mailer,
    log: run.log,
    logFields: { rule: rule.id },
  });
}

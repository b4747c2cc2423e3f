import type { Db } from "../../db/client";
import type { Deps } from "../../events/deps";
import { type AsyncListenerContext, memoized, type OutboxEvent } from "../../events/outbox-types";
import type { Mailer } from "../../lib/mail";
import { findById } from "../conversations/queries";
import { batchAccount } from "../webhooks/queries.batch";
import { evaluate, type RuleCondition } from "./engine";
import { runRuleActions } from "./executor";
import { loadFacts } from "./facts";
import type { RuleEvent } from "./fields";
import { activeRulesFor, claimRun } from "./queries";

export type AutomationRuntime = {
  db: Db;
  now: () => number;
  /** Deps whose events are attributed to the rule (performed_by automation_rule). */
  depsFor: (ruleId: number) => Deps;
  mailer: Mailer;
  log: (entry: Record<string, unknown>) => void;
  /** The queue batch's memo (rules are read once per batch and account). */
  memo?: AsyncListenerContext["memo"];
  /** The queue batch's events, whose conversations and messages are read together. */
  batch?: AsyncListenerContext["batch"];
  /** Told when a rule's actions ran: the batch's shared reads are stale from then on. */
  changed?: () => void;
};

const DIRECT: Partial<Record<OutboxEvent["name"], RuleEvent>> = {
  conversation_created: "conversation_created",
  conversation_updated: "conversation_updated",
  message_created: "message_created",
};

/** Chatwoot raises conversation_opened / conversation_resolved where we record status_changed. */
async function ruleEventOf(event: OutboxEvent, db: Db, conversationId: number) {
  const direct = DIRECT[event.name];
  if (direct || event.name !== "conversation_status_changed") {
    return direct ?? null;
  }
  const changed = event.payload.changed_attributes?.status?.current_value;
  const status = changed ?? (await findById(db, conversationId))?.status;
  if (status === "open") {
    return "conversation_opened";
  }
  return status === "resolved" ? "conversation_resolved" : null;
}

/**
 * Runs the account's active rules for one outbox event (Chatwoot's AutomationRuleListener):
 * events caused by a rule's own actions are ignored, so rules never trigger rules; the facts are
 * loaded once; each matching rule's actions run in order, attributed to that rule.
 */
export async function runAutomation(event: OutboxEvent, rt: AutomationRuntime): Promise<void> {
  const conversationId = event.conversationId ?? event.payload.conversation_id;
  if (event.payload.performed_by?.type === "automation_rule" || conversationId === undefined) {
    return;
  }
  const ruleEvent = await ruleEventOf(event, rt.db, conversationId);
  const messageId = event.payload.message_id;
  if (!ruleEvent || (ruleEvent === "message_created" && messageId === undefined)) {
    return;
  }
  const rules = await memoized(rt, `rules:${event.accountId}:${ruleEvent}`, () =>
    activeRulesFor(rt.db, event.accountId, ruleEvent),
  );
  if (rules.length === 0) {
    return;
  }
  const [loaded, account] = await Promise.all([
    loadFacts(rt, event, {
      accountId: event.accountId,
      conversationId,
      messageId: ruleEvent === "message_created" ? messageId : undefined,
      changedAttributes: event.payload.changed_attributes,
      now: rt.now(),
    }),
    batchAccount(rt, event.accountId),
  ]);
  if (!loaded || !account) {
    return;
  }
  for (const rule of rules) {
    if (!evaluate({ conditions: rule.conditions as RuleCondition[] }, loaded.facts)) {
      continue;
    }
    // At most once per event and rule: a redelivered event (another listener failed) must not
    // send its emails or messages twice. A crash between the claim and the actions loses them,
    // as Chatwoot's in-process listener would; repeating side effects is the worse failure.
    if (!(await claimRun(rt.db, event.id, rule.id, rt.now()))) {
      continue;
    }
    const deps = rt.depsFor(rule.id);
    await runRuleActions({
      deps,
      account,
      rule,
      eventId: event.id,
      conversationId,
      mailer: rt.mailer,
      log: rt.log,
    });
    // Relays the rule's outbox rows and runs the sync (realtime) listeners.
    await deps.events.flush();
    rt.changed?.();
  }
}

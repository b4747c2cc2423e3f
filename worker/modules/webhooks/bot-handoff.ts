import type { DeliveryRow } from "../../db/schema";
import { createDeps } from "../../events/deps";
import type { AsyncListenerContext, OutboxPayload } from "../../events/outbox-types";
import { findOutboxRows } from "../../events/queries";
import { findAccount } from "../accounts/queries";
import { findBot } from "../agent-bots/queries";
import { findById } from "../conversations/queries";
import { toggleStatus } from "../conversations/service.actions";
import { createMessage, type MessageScope } from "../messages/service";

/** Chatwoot's wording (conversations.activity.agent_bot.error_moved_to_open). */
export const BOT_FAILURE_ACTIVITY =
  "Conversation was marked open by system due to an error with the agent bot.";

/**
 * Chatwoot parity (AgentBots::WebhookJob): a bot delivery failed for good while its conversation
 * still waits on the bot (pending), so the humans take over: an activity message says why, and
 * the conversation opens through toggle_status, its events going out like any other change
 * (attributed to the system).
 *
 * Several deliveries of one conversation can fail together (a visitor's burst of messages):
 * the activity message is the claim. Its idempotency key names the conversation's event count
 * as this call saw it pending, so a concurrent failure that saw the same state finds the
 * message written and stops; a later one finds the conversation open.
 */
export async function handOffAfterBotFailure(
  ctx: Pick<AsyncListenerContext, "env" | "db" | "outbound" | "now">,
  delivery: DeliveryRow,
): Promise<void> {
  // A replay after the outbox row was pruned (a week on) has no conversation to hand off.
  const [event] = await findOutboxRows(ctx.db, [delivery.eventId]);
  const conversationId =
    event?.conversationId ?? (event?.payload as OutboxPayload | undefined)?.conversation_id;
  if (!event || conversationId == null) {
    return;
  }
  const [conversation, account, bot] = await Promise.all([
    findById(ctx.db, conversationId),
    findAccount(ctx.db, delivery.accountId),
    findBot(ctx.db, delivery.targetId),
  ]);
  if (conversation?.status !== "pending" || conversation.accountId !== delivery.accountId) {
    return;
  }
  if (!account || !bot) {
    return;
  }
  const deps = createDeps(ctx.env, {
    origin: (event.payload as OutboxPayload).origin,
    outbound: ctx.outbound,
    now: ctx.now,
  });
  // As the bot (toggle_status then records a handoff: humans are awaited from now).
  const scope: MessageScope = {
    deps,
    account,
    actor: { kind: "bot", bot },
    role: "bot",
    origin: deps.origin,
  };
  const note = await createMessage(scope, conversation, {
    content: BOT_FAILURE_ACTIVITY,
    messageType: "activity",
    idempotencyKey: `agent_bot_failure:${conversation.eventSeq}`,
  });
  if (note.duplicate) {
    return;
  }
  await toggleStatus(scope, conversation, { status: "open" });
  await deps.events.flush();
}

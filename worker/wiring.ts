import { registerHandlers } from "./events/registry";
import { drainQueues } from "./modules/assignment/fanout";
import { afterStatusChange, presenceChanged } from "./modules/assignment/hooks";
import { assignNew } from "./modules/assignment/service";
import { pruneSignInFailures } from "./modules/auth/throttle";
import { automationListener, pruneAutomationRuns } from "./modules/automation-rules/listener";
import { registerConversationHooks } from "./modules/conversations/hooks";
import { csatWrites } from "./modules/csat/derive";
import { surveyOnResolve } from "./modules/csat/service";
import { liveHandler } from "./modules/live/handler";
import { revocationHandler } from "./modules/live/revocation";
import { notificationListener } from "./modules/notifications/listener";
import { reportingWrites } from "./modules/reports/derive";
import { autoResolveDue, wakeSnoozed } from "./modules/schedule/service";
import { templatesListener } from "./modules/templates/listener";
import { attemptDelivery } from "./modules/webhooks/delivery";
import { resendOverdueDeliveries } from "./modules/webhooks/dispatch";
import { agentBotListener, webhookListener } from "./modules/webhooks/listeners";
import { registerPresence } from "./realtime/feed-presence";

/**
 * Who hears about events: the map of side effects. Loaded by the Worker's entry, so the
 * Worker, its Durable Objects and its queue consumer all run with these handlers.
 */
registerHandlers({
  live: [liveHandler, revocationHandler],
  // In this order for every outbox event: automation may change what webhooks then carry.
  // Template messages (greeting, out of office, email request) last: their own events follow.
  queued: [
    automationListener,
    webhookListener,
    agentBotListener,
    notificationListener,
    templatesListener,
  ],
  delivery: (id, ctx) => attemptDelivery(ctx, id),
  sweep: {
    deliveries: resendOverdueDeliveries,
    automation_runs: pruneAutomationRuns,
    // Both only find what is due and send it to the TIMED queue (modules/schedule/consumer.ts
    // changes it); a woken conversation's idle clock restarts, so no auto-resolve follows it.
    snoozed_woken: wakeSnoozed,
    auto_resolved: autoResolveDue,
    sign_in_failures: pruneSignInFailures,
    // A resolve frees a slot and a wake-up may need an agent (their hooks drain the inbox's
    // queue); this catches what is left waiting, fanned out on the TIMED queue as well.
    assigned_from_queue: drainQueues,
  },
  // Reporting facts and their rollups, in the batch of the events they come from.
  derived: [reportingWrites, csatWrites],
});

// Auto-assignment of new and reopened conversations; a resolve frees a slot and sends the
// CSAT survey.
registerConversationHooks({
  created: assignNew,
  statusChanged: async (scope, before, after) => {
    await surveyOnResolve(scope, before, after);
    await afterStatusChange(scope, before, after);
  },
});

// Agents' live presence, kept by their account's feed.
registerPresence(presenceChanged);

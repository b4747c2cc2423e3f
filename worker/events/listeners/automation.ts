import type { Bindings } from "../../env";
import { createDeps } from "../../http/middleware/services";
import { bindingMailer, type Mailer } from "../../modules/automation-rules/mailer";
import { runAutomation } from "../../modules/automation-rules/run";
import type { AsyncListener } from "../outbox-types";

export type AutomationListenerOptions = {
  /** How rules send email; the `send_email` binding unless a test records it. */
  mailer?: (env: Bindings, log: (entry: Record<string, unknown>) => void) => Mailer;
  log?: (entry: Record<string, unknown>) => void;
};

/** Workers Logs keep console output: one JSON line per entry (failed actions, mostly). */
const logLine = (entry: Record<string, unknown>) => {
  // biome-ignore lint/suspicious/noConsole: the Worker's log sink
  console.log(JSON.stringify({ source: "automation", ...entry }));
};

/** Automation rules (E13/E14) on the queue consumer's outbox events. */
export function createAutomationListener(opts: AutomationListenerOptions = {}): AsyncListener {
  const log = opts.log ?? logLine;
  return (event, ctx) =>
    runAutomation(event, {
      db: ctx.db,
      now: ctx.now,
      depsFor: (ruleId) =>
        createDeps(ctx.env, {
          performedBy: { type: "automation_rule", id: ruleId },
          origin: event.payload.origin,
          outbound: ctx.outbound,
          log,
        }),
      mailer: (opts.mailer ?? bindingMailer)(ctx.env, log),
      log,
      memo: ctx.memo,
    });
}

export const automationListener: AsyncListener = createAutomationListener();

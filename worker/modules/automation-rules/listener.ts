import { createDb } from "../../db/client";
import type { Bindings } from "../../env";
import { createDeps } from "../../events/deps";
import type { AsyncListener } from "../../events/outbox-types";
import { KEEP_SENT_SECONDS } from "../../events/sweep";
import { createLogger, type Logger } from "../../lib/logger";
import { bindingMailer, type Mailer } from "../../lib/mail";
import { pruneRuns } from "./queries";
import { runAutomation } from "./run";

type Log = (entry: Record<string, unknown>) => void;

export type AutomationListenerOptions = {
  /** How rules send email; the `send_email` binding unless a test records it. */
  mailer?: (env: Bindings, log: Log) => Mailer;
  /** Where entries go; the structured logger unless a test records them. */
  log?: Log;
};

/** Entries carry their own level and message; the logger adds the event's id. */
const sinkOf = (logger: Logger): Log => {
  return ({ level, msg, ...fields }) => {
    const write = level === "error" ? logger.error : level === "warn" ? logger.warn : logger.info;
    write(String(msg ?? "automation"), fields);
  };
};

/** Automation rules (E13/E14) on the queue consumer's outbox events. */
export function createAutomationListener(opts: AutomationListenerOptions = {}): AsyncListener {
  return (event, ctx) => {
    const logger = (ctx.log ?? createLogger()).with({ source: "automation", event_id: event.id });
    const log = opts.log ?? sinkOf(logger);
    return runAutomation(event, {
      db: ctx.db,
      now: ctx.now,
      depsFor: (ruleId) =>
        createDeps(ctx.env, {
          performedBy: { type: "automation_rule", id: ruleId },
          origin: event.payload.origin,
          outbound: ctx.outbound,
          log: logger,
        }),
      mailer: (opts.mailer ?? bindingMailer)(ctx.env, log),
      log,
      memo: ctx.memo,
      batch: ctx.batch,
      changed: ctx.changed,
    });
  };
}

export const automationListener: AsyncListener = createAutomationListener();

/** Cron sweep task: a pruned outbox event is never run again, so its rules' claims can go. */
export async function pruneAutomationRuns(env: Bindings, now: number): Promise<number> {
  await pruneRuns(createDb(env.DB), now - KEEP_SENT_SECONDS);
  return 0;
}

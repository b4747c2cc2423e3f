import { createLogger, type LogFields, type LogSink } from "./logger";

/** Ends a span: logs it with `fields` (what it carried) when spans are on. */
export type EndSpan = (fields?: LogFields) => void;

const off: EndSpan = () => {};

/**
 * Spans of work that runs behind the acks (the log writer's D1 transactions, the queue
 * consumer's batches) as `timing` log lines with their start (`at`, epoch ms) and length, when
 * LOG_TIMINGS is "1". The realtime bench sets it and lines the spans up with its slowest sends,
 * to show which part of the path holds their latency back (docs/realtime.md). Unset, as in
 * production, nothing is timed or logged.
 */
export function spanTimer(
  env: { LOG_TIMINGS?: string },
  sink?: LogSink,
): (span: string) => EndSpan {
  if (env.LOG_TIMINGS !== "1") {
    return () => off;
  }
  const log = createLogger({}, sink);
  return (span) => {
    const at = Date.now();
    return (fields = {}) => log.info("timing", { span, at, ms: Date.now() - at, ...fields });
  };
}

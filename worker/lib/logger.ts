/** One structured log line's fields; `msg` says what happened. */
export type LogFields = Record<string, unknown>;

export type Logger = {
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  /** A logger whose lines also carry `fields` (a request id, an event id). */
  with(fields: LogFields): Logger;
};

export type LogSink = (line: LogFields) => void;

/** Workers Logs keep console output: one JSON line per entry. */
const consoleSink: LogSink = (line) => {
  // biome-ignore lint/suspicious/noConsole: the Worker's log sink
  console.log(JSON.stringify(line));
};

/** Errors become their message and stack, which JSON.stringify would drop. */
const plain = (value: unknown) =>
  value instanceof Error ? { message: value.message, stack: value.stack } : value;

export function createLogger(base: LogFields = {}, sink: LogSink = consoleSink): Logger {
  const write = (level: string, msg: string, fields: LogFields = {}) => {
    const line: LogFields = { level, msg, ...base };
    for (const [key, value] of Object.entries(fields)) {
      line[key] = plain(value);
    }
    sink(line);
  };
  return {
    info: (msg, fields) => write("info", msg, fields),
    warn: (msg, fields) => write("warn", msg, fields),
    error: (msg, fields) => write("error", msg, fields),
    with: (fields) => createLogger({ ...base, ...fields }, sink),
  };
}

// What `npm start` says while it starts and stops. On the embedded demo database, plain lines for a
// person at a terminal; with DATABASE_URL (a deployment), JSON lines through the app's logger, like
// every other line the process writes, so a log collector can parse all of stdout
// (docs/decisions/0038-metrics-and-correlation.md).
import { flushLogs, logger } from "../../app/lib/logger.server.ts";

export interface StartLines {
  /** One thing done; `fields` go into the JSON line only. */
  info(text: string, fields?: Record<string, unknown>): void;
  /** A failure: a message for the person (a configuration error), or an error with its stack. */
  error(problem: unknown): void;
  /** Resolves once the lines so far have reached stdout (the JSON lines are written asynchronously). */
  flush(): Promise<void>;
}

export function startLines(json: boolean): StartLines {
  if (!json) return { info: (text) => console.log(text), error: (problem) => console.error(problem), flush: async () => {} };
  return {
    info: (text, fields = {}) => logger.info(fields, text.trim()),
    error: (problem) => (typeof problem === "string" ? logger.error(problem) : logger.error({ err: problem }, "start or stop failed")),
    flush: () => flushLogs(),
  };
}

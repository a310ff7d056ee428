// Last resort for errors no request caught. The request edge catches every request's errors, so
// these should never fire; when one does, it is logged, and the process keeps serving every other
// organization rather than dying for one request's bug (docs/decisions/0015-request-edge.md).
import type { Logger } from "pino";

export function installProcessGuards(logger: Pick<Logger, "fatal" | "error">, target: NodeJS.Process = process): void {
  target.on("uncaughtException", (error) => logger.fatal({ err: error }, "uncaught exception"));
  target.on("unhandledRejection", (reason) => logger.error({ err: reason }, "unhandled promise rejection"));
}

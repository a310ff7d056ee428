// /metrics at the edge (docs/decisions/0038-metrics-and-correlation.md): with METRICS_TOKEN unset
// it does not exist (the request goes on to the pages, which answer 404) and nothing is counted.
// Set, it answers before anything that needs a session or the main pool: the Prometheus text
// exposition for `Authorization: Bearer <METRICS_TOKEN>`, 401 with WWW-Authenticate for any other
// (missing, wrong, empty, malformed or oversized; the header is never logged), 405 for methods
// other than GET and HEAD. Every request, /metrics included, is counted when its response closes.
import type { IncomingMessage, ServerResponse } from "node:http";
import { methodNotAllowed } from "~/lib/method-not-allowed";
import { metricsTokenCheck } from "~/metrics/metrics-token.server";
import { observeHttpRequest } from "~/metrics/instruments.server";
import { enableMetrics, renderMetrics } from "~/metrics/registry.server";
import type { EdgeReply } from "./replies.server";
import { routeFamilyClassifier } from "./route-family.server";

const METHODS = ["GET", "HEAD"];

export interface MetricsEndpoint {
  /** Answers a request for /metrics. */
  serve(req: IncomingMessage, res: ServerResponse, reply: (edgeReply: EdgeReply) => void): Promise<void>;
  /** Counts one answered request: its path (as the request log has it), status and duration. */
  observe(path: string, status: number, milliseconds: number): void;
}

/** The endpoint, or null when METRICS_TOKEN is unset. */
export function metricsEndpoint(settings: { METRICS_TOKEN?: string; KEYLEDGER_COMMIT?: string }): MetricsEndpoint | null {
  if (!settings.METRICS_TOKEN) return null;
  enableMetrics({ commit: settings.KEYLEDGER_COMMIT });
  const authorized = metricsTokenCheck(settings.METRICS_TOKEN);
  const familyOf = routeFamilyClassifier();
  return {
    async serve(req, res, reply) {
      if (!METHODS.includes(req.method ?? "")) return reply(methodNotAllowed(METHODS));
      if (!authorized(req.headers.authorization)) {
        return reply({
          status: 401,
          code: "UNAUTHORIZED",
          messageKey: "metrics.unauthorized",
          headers: { "WWW-Authenticate": 'Bearer realm="metrics"' },
        });
      }
      const { contentType, body } = await renderMetrics();
      res.writeHead(200, { "Content-Type": contentType, "Content-Length": Buffer.byteLength(body), "Cache-Control": "no-store" });
      res.end(req.method === "HEAD" ? undefined : body);
    },
    observe(path, status, milliseconds) {
      observeHttpRequest(familyOf(path), status, milliseconds / 1000);
    },
  };
}

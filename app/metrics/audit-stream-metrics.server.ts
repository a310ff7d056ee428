// Audit streaming's figures (issue 32; docs/decisions/0053-stream-delivery.md): deliveries and
// delivered events, counted as the delivery job runs, and each stream's lag and the streams by
// state, read when Prometheus scrapes through the metrics pool's one connection (one-second
// statement timeout; when the database does not answer, the two gauges are left out rather than
// shown as a misleading 0). Inert until enableMetrics (METRICS_TOKEN), like the other figures.
import { Counter, Gauge, type Registry } from "prom-client";
import { metricsPool } from "~/db.server";
import { env } from "~/env.server";

interface StreamCounters {
  delivered: Counter;
  deliveries: Counter;
}

/** On globalThis like the other instruments (./instruments.server.ts). */
const shared = globalThis as typeof globalThis & { __auditStreamCounters?: StreamCounters };

/**
 * Every stream's state and lag as its page shows them (app/audit-streams/stream-views.server.ts):
 * paused; failing once its run of failures is older than STREAMING_FAILING_AFTER_SECONDS; else
 * active. The lag is the age of the first event after the cursor in stream order (one index step),
 * a replay's day standing for the history it still passes over; 0 when nothing waits. Reads every
 * organization's streams (tests/statements/allowed-scatter.ts).
 */
const STREAMS_SQL = `
  SELECT s.id,
         CASE WHEN s.paused THEN 'paused'
              WHEN s.failing_since <= now() - make_interval(secs => $1::int) THEN 'failing'
              ELSE 'active' END AS state,
         COALESCE(GREATEST(0, EXTRACT(EPOCH FROM now() - GREATEST(oldest.created_at, s.deliver_from))), 0)::float8 AS lag,
         EXTRACT(EPOCH FROM s.last_delivered_at)::float8 AS "lastDelivered"
  FROM audit_streams s
  LEFT JOIN LATERAL (
    SELECT e.created_at FROM audit_events e
    WHERE e.organization_id = s.organization_id
      AND (COALESCE(e.transaction_id, '0'::xid8), e.id) > (s.cursor_transaction_id, s.cursor_event_id)
    ORDER BY COALESCE(e.transaction_id, '0'::xid8), e.id
    LIMIT 1) oldest ON true`;

const STATES = ["active", "paused", "failing"] as const;

interface StreamFigures {
  id: string;
  state: (typeof STATES)[number];
  lag: number;
  /** Unix seconds of the last accepted delivery, null before the first. */
  lastDelivered: number | null;
}

let inFlight: Promise<StreamFigures[] | null> | null = null;

/** The figures, or null when the database did not answer; the two gauges share one query per scrape. */
function readStreams(): Promise<StreamFigures[] | null> {
  inFlight ??= metricsPool()
    .query<StreamFigures>(STREAMS_SQL, [env().STREAMING_FAILING_AFTER_SECONDS])
    .then(
      ({ rows }) => rows,
      () => null,
    )
    .finally(() => {
      inFlight = null;
    });
  return inFlight;
}

export function registerAuditStreamMetrics(registry: Registry): void {
  if (!shared.__auditStreamCounters) {
    shared.__auditStreamCounters = {
      delivered: new Counter({
        name: "keyledger_audit_stream_events_delivered_total",
        help: "Audit events delivered to streams (accepted by the receiver), by destination kind.",
        labelNames: ["kind"],
        registers: [registry],
      }),
      deliveries: new Counter({
        name: "keyledger_audit_stream_deliveries_total",
        help: "Batches sent to audit streams, by destination kind and outcome: ok, or the failure code.",
        labelNames: ["kind", "outcome"],
        registers: [registry],
      }),
    };
  }
  new Gauge({
    name: "keyledger_audit_stream_lag_seconds",
    help: "Age of each audit stream's oldest event not yet delivered, 0 when none. Absent when the database did not answer.",
    labelNames: ["stream"],
    registers: [registry],
    async collect() {
      const streams = await readStreams();
      this.reset();
      for (const stream of streams ?? []) this.set({ stream: stream.id }, stream.lag);
    },
  });
  new Gauge({
    name: "keyledger_audit_stream_state",
    help: "Each audit stream's state as its page shows it: 1 for the state it is in (active, paused, failing), 0 for the others.",
    labelNames: ["stream", "state"],
    registers: [registry],
    async collect() {
      const streams = await readStreams();
      this.reset();
      for (const stream of streams ?? [])
        for (const state of STATES) this.set({ stream: stream.id, state }, stream.state === state ? 1 : 0);
    },
  });
  new Gauge({
    name: "keyledger_audit_stream_last_success_timestamp_seconds",
    help: "When each audit stream's receiver last accepted a delivery (Unix seconds); absent before the first.",
    labelNames: ["stream"],
    registers: [registry],
    async collect() {
      const streams = await readStreams();
      this.reset();
      for (const stream of streams ?? []) if (stream.lastDelivered !== null) this.set({ stream: stream.id }, stream.lastDelivered);
    },
  });
  new Gauge({
    name: "keyledger_audit_streams",
    help: "Audit streams by state: active, paused, failing. Absent when the database did not answer.",
    labelNames: ["state"],
    registers: [registry],
    async collect() {
      const streams = await readStreams();
      this.reset();
      if (!streams) return;
      for (const state of STATES) this.set({ state }, streams.filter((s) => s.state === state).length);
    },
  });
}

/** One delivery attempt of `events` events (0 when it failed). `outcome`: ok, or the failure code. */
export function countStreamDelivery(kind: string, outcome: string, events: number): void {
  const counters = shared.__auditStreamCounters;
  if (!counters) return;
  counters.deliveries.inc({ kind, outcome });
  if (events > 0) counters.delivered.inc({ kind }, events);
}

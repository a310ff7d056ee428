// The job queue (graphile-worker's tables in our database), read when Prometheus scrapes, through
// the metrics pool's one connection with a one-second statement timeout (app/db.server.ts). When
// the database does not answer, the scrape still answers: the two figures are left out (absent,
// not a misleading 0) and keyledger_job_queue_up says 0.
import { Gauge, type Registry } from "prom-client";
import { metricsPool } from "~/db.server";

/** graphile-worker's public view of its jobs. A job whose attempts reached max_attempts is never
 * run again: failed for good. Every other one waits (now or for its next retry) or is running. */
const JOB_COUNTS_SQL = `
  SELECT count(*) FILTER (WHERE attempts < max_attempts)::int AS waiting,
         count(*) FILTER (WHERE attempts >= max_attempts)::int AS failed
    FROM graphile_worker.jobs`;

interface JobCounts {
  waiting: number;
  failed: number;
}

let inFlight: Promise<JobCounts | null> | null = null;

/** The counts, or null when the database did not answer. The three gauges are collected at once
 * (prom-client asks them together), so they share one query. */
function readJobCounts(): Promise<JobCounts | null> {
  inFlight ??= metricsPool()
    .query<JobCounts>(JOB_COUNTS_SQL)
    .then(
      ({ rows }) => rows[0] ?? { waiting: 0, failed: 0 },
      () => null,
    )
    .finally(() => {
      inFlight = null;
    });
  return inFlight;
}

function jobGauge(registry: Registry, name: string, help: string, read: (counts: JobCounts) => number): void {
  new Gauge({
    name,
    help: `${help} Absent when the database did not answer.`,
    registers: [registry],
    async collect() {
      const counts = await readJobCounts();
      if (counts) this.set(read(counts));
      else this.remove();
    },
  });
}

export function registerJobGauges(registry: Registry): void {
  jobGauge(registry, "keyledger_job_queue_depth", "Background jobs (mail) waiting to run, retrying or running.", (c) => c.waiting);
  jobGauge(
    registry,
    "keyledger_jobs_failed_permanently",
    "Background jobs that used all their attempts and will not run again.",
    (c) => c.failed,
  );
  new Gauge({
    name: "keyledger_job_queue_up",
    help: "1 when this scrape could read the job queue, 0 when the database did not answer in time.",
    registers: [registry],
    async collect() {
      this.set((await readJobCounts()) ? 1 : 0);
    },
  });
}

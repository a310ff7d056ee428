// Inside a background job, the ambient correlation id is `job:<job id>`: an audit event a job
// records names the job it came from, as one recorded in a request names the request
// (app/lib/request-scope.server.ts, docs/decisions/0038-metrics-and-correlation.md). The job id is
// also in the worker's log lines (`jobId`), so the two can be joined.
import type { TaskList } from "graphile-worker";
import { runWithCorrelationId } from "~/lib/request-scope.server";

export function withJobCorrelation(tasks: TaskList): TaskList {
  const scoped: TaskList = {};
  for (const [name, task] of Object.entries(tasks)) {
    if (task) scoped[name] = (payload, helpers) => runWithCorrelationId(`job:${helpers.job.id}`, () => task(payload, helpers));
  }
  return scoped;
}

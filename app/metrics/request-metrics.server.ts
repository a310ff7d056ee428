// The request figures, counted on the hot path (apiKey.authenticate answers thousands a second):
// plain numbers in typed arrays per route family and status class, written out in Prometheus's
// text format only when scraped. prom-client's label-bound children hash and validate their labels
// on every call and leave a string behind each time; this costs an index, two additions and a
// bucket search, and allocates nothing (docs/decisions/0038-metrics-and-correlation.md).
//   keyledger_http_requests_total{route,status}
//   keyledger_http_request_duration_seconds{route,status} (histogram)

/** Latency buckets, in seconds: most answers take milliseconds; exports may stream for minutes. */
export const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30] as const;
const STATUS_CLASSES = ["1xx", "2xx", "3xx", "4xx", "5xx"] as const;
/** More route families than the edge can name means a bug that would grow the series without end:
 * the rest are counted as "other". */
const MAX_FAMILIES = 256;

interface FamilyCounts {
  /** Per status class. */
  counts: Float64Array;
  sums: Float64Array;
  /** Per status class, per bucket: answers in that bucket alone (made cumulative when written). */
  buckets: Float64Array;
}

export class RequestMetrics {
  private readonly families = new Map<string, FamilyCounts>();

  private familyCounts(family: string): FamilyCounts {
    let counts = this.families.get(family);
    if (!counts) {
      if (family !== "other" && this.families.size >= MAX_FAMILIES) return this.familyCounts("other");
      counts = {
        counts: new Float64Array(STATUS_CLASSES.length),
        sums: new Float64Array(STATUS_CLASSES.length),
        buckets: new Float64Array(STATUS_CLASSES.length * DURATION_BUCKETS.length),
      };
      this.families.set(family, counts);
    }
    return counts;
  }

  observe(family: string, status: number, seconds: number): void {
    const counts = this.familyCounts(family);
    const statusClass = Math.min(Math.max(Math.floor(status / 100), 1), 5) - 1;
    counts.counts[statusClass]! += 1;
    counts.sums[statusClass]! += seconds;
    let bucket = 0;
    while (bucket < DURATION_BUCKETS.length && seconds > DURATION_BUCKETS[bucket]!) bucket++;
    if (bucket < DURATION_BUCKETS.length) counts.buckets[statusClass * DURATION_BUCKETS.length + bucket]! += 1;
  }

  /** Both metrics in the text exposition format (0.0.4), each series once it has an answer. */
  render(): string {
    const total = [
      "# HELP keyledger_http_requests_total HTTP requests answered, by route family and status class.",
      "# TYPE keyledger_http_requests_total counter",
    ];
    const histogram = [
      "# HELP keyledger_http_request_duration_seconds Time from a request's arrival to its response's close, by route family and status class.",
      "# TYPE keyledger_http_request_duration_seconds histogram",
    ];
    for (const [family, counts] of this.families) {
      for (const [index, status] of STATUS_CLASSES.entries()) {
        const count = counts.counts[index]!;
        if (count === 0) continue;
        const labels = `route="${escapeLabel(family)}",status="${status}"`;
        total.push(`keyledger_http_requests_total{${labels}} ${count}`);
        let cumulative = 0;
        for (const [bucket, bound] of DURATION_BUCKETS.entries()) {
          cumulative += counts.buckets[index * DURATION_BUCKETS.length + bucket]!;
          histogram.push(`keyledger_http_request_duration_seconds_bucket{${labels},le="${bound}"} ${cumulative}`);
        }
        histogram.push(`keyledger_http_request_duration_seconds_bucket{${labels},le="+Inf"} ${count}`);
        histogram.push(`keyledger_http_request_duration_seconds_sum{${labels}} ${counts.sums[index]}`);
        histogram.push(`keyledger_http_request_duration_seconds_count{${labels}} ${count}`);
      }
    }
    return `${total.join("\n")}\n\n${histogram.join("\n")}\n`;
  }
}

/** Label values as the text format wants them: backslash, double quote and line feed escaped. */
function escapeLabel(value: string): string {
  return value.replace(/[\\"\n]/g, (c) => (c === "\n" ? "\\n" : `\\${c}`));
}

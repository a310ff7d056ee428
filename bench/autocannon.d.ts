// The part of autocannon's API the benchmarks use (the package ships no types).
declare module "autocannon" {
  import type { EventEmitter } from "node:events";

  interface RequestParams {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
  }

  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    pipelining?: number;
    /** Requests per second across all connections (a fixed rate instead of as fast as possible). */
    overallRate?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    requests?: (RequestParams & { setupRequest?: (request: RequestParams, context: Record<string, unknown>) => RequestParams })[];
  }

  interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    p50: number;
    p90: number;
    p99: number;
    p99_9?: number;
    total: number;
  }

  interface Result {
    requests: Histogram;
    latency: Histogram;
    throughput: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    "2xx": number;
    "4xx": number;
    "5xx": number;
    duration: number;
  }

  /** A run in progress: awaitable for its result; `stop()` ends it early (the result covers what ran). */
  function autocannon(options: Options): Promise<Result> & EventEmitter & { stop(): void };
  export default autocannon;
  export type { Options, Result };
}

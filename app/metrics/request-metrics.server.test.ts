import { describe, expect, it } from "vitest";
import { RequestMetrics } from "./request-metrics.server";

describe("RequestMetrics", () => {
  it("writes a counter and a cumulative histogram per family and status class, in the text format", () => {
    const metrics = new RequestMetrics();
    metrics.observe("rpc.apiKey.authenticate", 200, 0.004);
    metrics.observe("rpc.apiKey.authenticate", 200, 0.02);
    metrics.observe("rpc.apiKey.authenticate", 401, 0.001);
    metrics.observe("page", 302, 45);
    metrics.observe('we"ird\\\n', 500, 0.005);
    const text = metrics.render();
    const line = (prefix: string) => text.split("\n").find((l) => l.startsWith(prefix));
    const ok = 'route="rpc.apiKey.authenticate",status="2xx"';
    expect(line(`keyledger_http_requests_total{${ok}} `)).toBe(`keyledger_http_requests_total{${ok}} 2`);
    expect(line(`keyledger_http_request_duration_seconds_bucket{${ok},le="0.005"}`)).toMatch(/ 1$/);
    expect(line(`keyledger_http_request_duration_seconds_bucket{${ok},le="0.01"}`)).toMatch(/ 1$/);
    expect(line(`keyledger_http_request_duration_seconds_bucket{${ok},le="0.025"}`)).toMatch(/ 2$/);
    expect(line(`keyledger_http_request_duration_seconds_bucket{${ok},le="+Inf"}`)).toMatch(/ 2$/);
    expect(Number(line(`keyledger_http_request_duration_seconds_sum{${ok}}`)!.split(" ")[1])).toBeCloseTo(0.024);
    expect(line(`keyledger_http_request_duration_seconds_count{${ok}}`)).toMatch(/ 2$/);
    // Longer than the last bound: only in +Inf.
    expect(line('keyledger_http_request_duration_seconds_bucket{route="page",status="3xx",le="30"}')).toMatch(/ 0$/);
    expect(line('keyledger_http_request_duration_seconds_bucket{route="page",status="3xx",le="+Inf"}')).toMatch(/ 1$/);
    // A boundary value belongs to its bucket (le means "less than or equal").
    expect(line('keyledger_http_request_duration_seconds_bucket{route="we\\"ird\\\\\\n",status="5xx",le="0.005"}')).toMatch(/ 1$/);
    // No series for a class without answers; one HELP and TYPE per metric.
    expect(text).not.toContain('status="1xx"');
    expect(text.match(/^# TYPE /gm)).toHaveLength(2);
    expect(text).toContain("# TYPE keyledger_http_request_duration_seconds histogram");
  });
});

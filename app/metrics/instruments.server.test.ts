import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { countAuthentication, createInstruments, observeHttpRequest, renderRequestMetrics } from "./instruments.server";

describe("the request instruments", () => {
  it("do nothing before they are created, then keep the number of series bounded whatever they are given", async () => {
    // Before createInstruments (METRICS_TOKEN unset): nothing to count into, nothing thrown.
    observeHttpRequest("page", 200, 0.01);
    countAuthentication("ok");

    const registry = new Registry();
    createInstruments(registry);
    for (let i = 0; i < 1000; i++) observeHttpRequest(`family-${i}`, 200 + (i % 400), 0.001);
    observeHttpRequest("page", 99, 0.001);
    observeHttpRequest("page", 777, 0.001);
    const text = `${await registry.metrics()}\n${renderRequestMetrics()}`;
    const routes = new Set([...text.matchAll(/keyledger_http_requests_total\{route="([^"]+)"/g)].map((m) => m[1]));
    expect(routes.size).toBeLessThanOrEqual(257);
    expect(routes.has("other")).toBe(true);
    const statuses = new Set([...text.matchAll(/keyledger_http_requests_total\{[^}]*status="([^"]+)"/g)].map((m) => m[1]));
    expect([...statuses].sort()).toEqual(["1xx", "2xx", "3xx", "4xx", "5xx"]);
    expect(text).toContain('keyledger_authenticate_total{outcome="ok"} 0');
  });
});

// The file's name, its Content-Disposition and the RateLimit headers of the export's answer.
import { describe, expect, it } from "vitest";
import { EXPORT_FORMATS, exportFileName } from "~/audit/export/formats";
import { attachmentDisposition } from "~/lib/content-disposition";
import { rateLimitHeaders } from "~/lib/rate-limit-headers";

describe("the file's name and headers", () => {
  it("names the organization and the filters' date range, up to today when open-ended", () => {
    const now = new Date("2026-11-23T10:00:00Z");
    expect(exportFileName("acme", { from: "2026-01-01", to: "2026-01-31" }, "csv", now)).toBe(
      "audit-log-acme-2026-01-01-to-2026-01-31.csv",
    );
    expect(exportFileName("acme", { from: "2026-01-01" }, "json", now)).toBe("audit-log-acme-2026-01-01-to-2026-11-23.ndjson");
    expect(exportFileName("acme", { to: "2026-01-31" }, "csv", now)).toBe("audit-log-acme-until-2026-01-31.csv");
    expect(exportFileName("acme", {}, "csv", now)).toBe("audit-log-acme-until-2026-11-23.csv");
  });

  it("gives an ASCII name and the exact UTF-8 name in Content-Disposition", () => {
    expect(attachmentDisposition("audit-log-acme-until-2026-11-23.csv")).toBe(
      `attachment; filename="audit-log-acme-until-2026-11-23.csv"; filename*=UTF-8''audit-log-acme-until-2026-11-23.csv`,
    );
    const header = attachmentDisposition('Prüfprotokoll "Müller" ; x.csv');
    expect(header).toMatch(/^attachment; filename="[\x20-\x7e]+"; filename\*=UTF-8''/);
    expect(header.match(/filename="([^"]*)"/)?.[1]).toMatch(/^[A-Za-z0-9._-]+$/);
    expect(decodeURIComponent(header.split("UTF-8''")[1]!)).toBe('Prüfprotokoll "Müller" ; x.csv');
  });

  it("writes the IETF RateLimit fields for each policy", () => {
    const states = [
      { policy: "audit.export.user", limit: 5, windowSeconds: 60, remaining: 4, resetSeconds: 60 },
      { policy: "audit.export.organization", limit: 10, windowSeconds: 60, remaining: 0, resetSeconds: 12 },
    ];
    expect(rateLimitHeaders(states)).toEqual({
      "RateLimit-Policy": `"audit.export.user";q=5;w=60, "audit.export.organization";q=10;w=60`,
      RateLimit: `"audit.export.user";r=4;t=60, "audit.export.organization";r=0;t=12`,
    });
    expect(rateLimitHeaders([])).toEqual({});
  });

  it("ends a file cut short by the shutdown with one line each format's readers cannot take for an event", () => {
    const csv = EXPORT_FORMATS.csv.interrupted.toString("utf8");
    expect(csv).toMatch(/^# ERROR: .*incomplete.*\r\n$/);
    // One cell: no separator or quote, and no event id starts with "#".
    expect(csv.trimEnd()).not.toMatch(/[,"\r\n]/);
    const ndjson = EXPORT_FORMATS.json.interrupted.toString("utf8");
    expect(ndjson.endsWith("\n")).toBe(true);
    expect(JSON.parse(ndjson)).toEqual({ error: "interrupted", message: expect.stringContaining("incomplete") });
  });
});

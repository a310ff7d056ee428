// The export's query string: the page's filter rules plus format, repeats and length.
import { describe, expect, it } from "vitest";
import {
  auditExportHref,
  auditLogFiltersOfExport,
  MAX_EXPORT_QUERY_LENGTH,
  parseAuditExportQuery,
  withoutEmptyParameters,
} from "~/audit/audit-query";
import { DomainError } from "~/lib/domain-error";

/** The message key of the 400 that `run` throws. */
function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe("BAD_REQUEST");
    return (error as DomainError).messageKey;
  }
  throw new Error("expected a 400");
}

describe("the export's query string", () => {
  it("takes format (csv when left out) and the page's filters by the page's rules", () => {
    expect(parseAuditExportQuery("")).toEqual({ format: "csv", query: { filters: {} } });
    const parsed = parseAuditExportQuery(
      "?format=json&action=api_key.issued&actorId=u-1&targetId=k-1&from=2026-01-01&to=2026-01-31&lng=de",
    );
    expect(parsed.format).toBe("json");
    expect(parsed.query).toEqual({
      filters: { action: "api_key.issued", actorId: "u-1", targetId: "k-1", from: "2026-01-01", to: "2026-01-31" },
      createdFrom: new Date("2026-01-01T00:00:00.000Z"),
      createdBefore: new Date("2026-02-01T00:00:00.000Z"),
    });
  });

  it("answers bad input with the page's messages, and its own for format, repeats and length", () => {
    expect(refusal(() => parseAuditExportQuery("format=xml"))).toBe("auditExport.badFormat");
    expect(refusal(() => parseAuditExportQuery("format=CSV"))).toBe("auditExport.badFormat");
    expect(refusal(() => parseAuditExportQuery("format=csv&format=json"))).toBe("auditExport.repeatedParameter");
    expect(refusal(() => parseAuditExportQuery("action=a&action=a"))).toBe("auditExport.repeatedParameter");
    expect(refusal(() => parseAuditExportQuery(`x=${"a".repeat(MAX_EXPORT_QUERY_LENGTH)}`))).toBe("auditExport.queryTooLong");
    expect(refusal(() => parseAuditExportQuery("action=Not%20An%20Action"))).toBe("auditLog.badAction");
    expect(refusal(() => parseAuditExportQuery("actorId=%22%3B"))).toBe("auditLog.badActor");
    expect(refusal(() => parseAuditExportQuery("from=2026-02-30"))).toBe("auditLog.badDate");
    expect(refusal(() => parseAuditExportQuery("from=2026-02-02&to=2026-02-01"))).toBe("auditLog.badRange");
  });

  it("reads back what the page's link writes", () => {
    const filters = { action: "member.removed", actorId: "a@b", from: "2026-03-01", to: "2026-03-02", targetId: "x" };
    const href = auditExportHref("00000000-0000-4000-8000-000000000000", filters, "json");
    expect(href.startsWith("/api/organizations/00000000-0000-4000-8000-000000000000/audit-log/export?")).toBe(true);
    const parsed = parseAuditExportQuery(new URL(href, "http://localhost").search);
    expect(parsed.format).toBe("json");
    expect(parsed.query.filters).toEqual(filters);
  });
});

describe("the page's address", () => {
  it("loses its empty parameters, and only those (a clean one is left alone)", () => {
    expect(withoutEmptyParameters("?action=&actorId=&from=&to=")).toBe("");
    expect(withoutEmptyParameters("?action=&actorId=u1&from=%20&perPage=50&lng=de")).toBe("?actorId=u1&perPage=50&lng=de");
    expect(withoutEmptyParameters("?cursor=&event=")).toBe("");
    expect(withoutEmptyParameters("?action=member.removed&lng=")).toBeNull();
    expect(withoutEmptyParameters("")).toBeNull();
  });
});

describe("a refused export's way back to the log", () => {
  it("keeps each filter the page can show, leaves out the others and a range that ends before it starts", () => {
    expect(auditLogFiltersOfExport("?format=xml&action=member.removed&actorId=&targetId=k1&lng=de")).toEqual({
      action: "member.removed",
      targetId: "k1",
    });
    expect(auditLogFiltersOfExport("?action=Bad!&from=2026-02-30&to=2026-03-01")).toEqual({ to: "2026-03-01" });
    expect(auditLogFiltersOfExport("?from=2026-03-01&to=2026-02-01&actorId=u1")).toEqual({ actorId: "u1" });
    expect(auditLogFiltersOfExport(`?action=${"a".repeat(MAX_EXPORT_QUERY_LENGTH)}`)).toEqual({});
    expect(auditLogFiltersOfExport("?%E0%A4%A")).toEqual({});
  });
});

// The export's pure parts: COPY's binary framing taken apart in chunks of any size, the query
// string rules, the file name and its Content-Disposition, the RateLimit headers.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { attachmentDisposition } from "~/lib/content-disposition";
import { DomainError } from "~/lib/domain-error";
import { rateLimitHeaders } from "~/lib/rate-limit-headers";
import { auditExportHref, MAX_EXPORT_QUERY_LENGTH, parseAuditExportQuery } from "./audit-query";
import { CopyLines, CsvLineEnds, exportFileName, inlineSql } from "./export.server";
import { Prisma } from "~/generated/prisma/client";

/** COPY … (FORMAT binary) output for one text column holding these lines. */
function copyBinary(lines: string[], extension = Buffer.alloc(0)): Buffer {
  const header = Buffer.alloc(19);
  header.write("PGCOPY\n\xff\r\n\0", 0, "latin1");
  header.writeUInt32BE(0, 11);
  header.writeUInt32BE(extension.length, 15);
  const rows = lines.map((line) => {
    const bytes = Buffer.from(line, "utf8");
    const row = Buffer.alloc(6);
    row.writeInt16BE(1, 0);
    row.writeInt32BE(bytes.length, 2);
    return Buffer.concat([row, bytes]);
  });
  const trailer = Buffer.alloc(2);
  trailer.writeInt16BE(-1, 0);
  return Buffer.concat([header, extension, ...rows, trailer]);
}

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

describe("CopyLines", () => {
  it("gives back exactly the lines, however the bytes are cut into chunks", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: "grapheme", maxLength: 300 }), { maxLength: 40 }),
        fc.uint8Array({ maxLength: 8 }),
        fc.array(fc.integer({ min: 1, max: 64 }), { minLength: 1, maxLength: 50 }),
        (lines, extension, cuts) => {
          const bytes = copyBinary(lines, Buffer.from(extension));
          const parser = new CopyLines();
          const out: Buffer[] = [];
          let pos = 0;
          for (let i = 0; pos < bytes.length; i++) {
            const size = cuts[i % cuts.length]!;
            out.push(parser.push(bytes.subarray(pos, pos + size)));
            pos += size;
          }
          expect(Buffer.concat(out).toString("utf8")).toBe(lines.join(""));
          expect(parser.ended).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("refuses anything that is not COPY's binary format", () => {
    const text = Buffer.from("id,createdAt,ac\0\0\0\0rest", "latin1");
    expect(() => new CopyLines().push(text)).toThrow(/not COPY binary/);
  });
});

/** A CSV field as PostgreSQL's COPY (FORMAT csv) writes it: quoted only when it must be. */
const copyCsvField = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);

describe("CsvLineEnds", () => {
  it("ends each COPY CSV row with CRLF and leaves line breaks inside quoted fields alone, however the bytes are cut", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.array(fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('"', "\n", "\r\n", '""\n"', ",\n")), {
            minLength: 1,
            maxLength: 6,
          }),
          {
            maxLength: 30,
          },
        ),
        fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 50 }),
        (rows, cuts) => {
          const line = (row: string[]) => row.map(copyCsvField).join(",");
          const bytes = Buffer.from(rows.map((row) => `${line(row)}\n`).join(""), "utf8");
          const ends = new CsvLineEnds();
          const out: Buffer[] = [];
          let pos = 0;
          for (let i = 0; pos < bytes.length; i++) {
            const size = cuts[i % cuts.length]!;
            out.push(ends.push(bytes.subarray(pos, pos + size)));
            pos += size;
          }
          expect(Buffer.concat(out).toString("utf8")).toBe(rows.map((row) => `${line(row)}\r\n`).join(""));
          expect(ends.complete).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("is not complete while a quoted field is still open", () => {
    const ends = new CsvLineEnds();
    expect(ends.push(Buffer.from('a,"line one\n')).toString()).toBe('a,"line one\n');
    expect(ends.complete).toBe(false);
    expect(ends.push(Buffer.from('line two"\n')).toString()).toBe('line two"\r\n');
    expect(ends.complete).toBe(true);
  });
});

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
});

describe("inlineSql", () => {
  it("writes each value through the given quoting, dates as ISO text, and refuses anything else", () => {
    const quote = (value: string) => `'${value.replace(/'/g, "''")}'`;
    const sql = Prisma.sql`SELECT 1 WHERE a = ${"x' OR '1'='1"} AND b < ${new Date("2026-01-01T00:00:00Z")}::timestamptz`;
    expect(inlineSql(sql, quote)).toBe(`SELECT 1 WHERE a = 'x'' OR ''1''=''1' AND b < '2026-01-01T00:00:00.000Z'::timestamptz`);
    expect(() => inlineSql(Prisma.sql`SELECT ${1}`, quote)).toThrow(/cannot inline/);
  });
});

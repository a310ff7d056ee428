// The export's pure parts: COPY's binary framing taken apart in chunks of any size, the query
// string rules, the file name and its Content-Disposition, the RateLimit headers.
import { parse } from "csv-parse/sync";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { attachmentDisposition } from "~/lib/content-disposition";
import { DomainError } from "~/lib/domain-error";
import { rateLimitHeaders } from "~/lib/rate-limit-headers";
import { auditExportHref, MAX_EXPORT_QUERY_LENGTH, parseAuditExportQuery } from "./audit-query";
import { CopyRows, csvCell, EXPORT_FORMATS, exportFileName, inlineSql } from "./export.server";
import { Prisma } from "~/generated/prisma/client";

/** One exported row as the test writes it: id, createdAt, then the eight text columns. */
interface TestRow {
  id: string;
  createdAt: Date;
  texts: (string | null)[];
}

/** COPY … (FORMAT binary) output for these rows (uuid, timestamptz, then text fields). */
function copyBinary(rows: TestRow[], extension = Buffer.alloc(0)): Buffer {
  const header = Buffer.alloc(19);
  header.write("PGCOPY\n\xff\r\n\0", 0, "latin1");
  header.writeUInt32BE(0, 11);
  header.writeUInt32BE(extension.length, 15);
  const field = (bytes: Buffer | null) => {
    const length = Buffer.alloc(4);
    length.writeInt32BE(bytes ? bytes.length : -1, 0);
    return bytes ? Buffer.concat([length, bytes]) : length;
  };
  const encoded = rows.map(({ id, createdAt, texts }) => {
    const count = Buffer.alloc(2);
    count.writeInt16BE(2 + texts.length, 0);
    const time = Buffer.alloc(8);
    time.writeBigInt64BE(BigInt(createdAt.getTime() - 946_684_800_000) * 1000n, 0);
    return Buffer.concat([
      count,
      field(Buffer.from(id.replaceAll("-", ""), "hex")),
      field(time),
      ...texts.map((t) => field(t === null ? null : Buffer.from(t, "utf8"))),
    ]);
  });
  const trailer = Buffer.alloc(2);
  trailer.writeInt16BE(-1, 0);
  return Buffer.concat([header, extension, ...encoded, trailer]);
}

/** Pushes `bytes` through a CopyRows in pieces of the given sizes (cycled). */
function pushInPieces(rows: CopyRows, bytes: Buffer, cuts: number[]): string {
  const out: Buffer[] = [];
  let pos = 0;
  for (let i = 0; pos < bytes.length; i++) {
    const size = cuts[i % cuts.length]!;
    out.push(rows.push(bytes.subarray(pos, pos + size)));
    pos += size;
  }
  return Buffer.concat(out).toString("utf8");
}

const testRow = fc.record({
  id: fc.uuid(),
  createdAt: fc.date({ min: new Date("-000100-01-01T00:00:00Z"), max: new Date("+020000-12-31T23:59:59.999Z"), noInvalidDate: true }),
  texts: fc.array(fc.option(fc.string({ unit: "grapheme", maxLength: 60 }), { nil: null }), { minLength: 7, maxLength: 7 }),
});

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

describe("CopyRows", () => {
  it("gives back one NDJSON line per row, however the bytes are cut into chunks", () => {
    fc.assert(
      fc.property(
        fc.array(testRow, { maxLength: 30 }),
        fc.uint8Array({ maxLength: 8 }),
        fc.array(fc.integer({ min: 1, max: 64 }), { minLength: 1, maxLength: 50 }),
        (rows, extension, cuts) => {
          const details = { n: 1, s: "x" };
          const full = rows.map((r) => ({ ...r, texts: [...r.texts, JSON.stringify(details)] }));
          const parser = new CopyRows(EXPORT_FORMATS.json.line);
          const lines = pushInPieces(parser, copyBinary(full, Buffer.from(extension)), cuts).split("\n");
          expect(lines.pop()).toBe("");
          expect(lines.map((l) => JSON.parse(l) as unknown)).toEqual(
            rows.map((r) => {
              const [action, actorKind, actorId, actorName, targetType, targetId, targetName] = r.texts;
              return {
                id: r.id,
                createdAt: r.createdAt.toISOString(),
                action,
                actorKind,
                actorId,
                actorName,
                targetType,
                targetId,
                targetName,
                details,
              };
            }),
          );
          expect(parser.complete).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("gives back CSV rows a CSV parser reads back, formula-like cells prefixed, however the bytes are cut", () => {
    fc.assert(
      fc.property(
        fc.array(testRow, { maxLength: 30 }),
        fc.array(fc.integer({ min: 1, max: 64 }), { minLength: 1, maxLength: 50 }),
        (rows, cuts) => {
          const full = rows.map((r) => ({ ...r, texts: [...r.texts, "-1"] }));
          const csv = pushInPieces(new CopyRows(EXPORT_FORMATS.csv.line), copyBinary(full), cuts);
          const parsed = parse(csv, { relax_quotes: false }) as string[][];
          const formulaSafe = (t: string | null) => (t === null ? "" : /^[=+\-@\t\r]/.test(t) ? `'${t}` : t);
          expect(parsed).toEqual(full.map((r) => [r.id, r.createdAt.toISOString(), ...r.texts.map(formulaSafe)]));
          if (rows.length > 0) expect(csv.endsWith("\r\n")).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("refuses anything that is not COPY's binary format", () => {
    const text = Buffer.from("id,createdAt,ac\0\0\0\0rest", "latin1");
    expect(() => new CopyRows(EXPORT_FORMATS.csv.line).push(text)).toThrow(/not COPY binary/);
  });

  it("is not complete before the trailer", () => {
    const bytes = copyBinary([
      {
        id: "0192b7a0-0000-7000-8000-000000000001",
        createdAt: new Date("2026-11-23T09:15:02.123Z"),
        texts: ["a", "b", "c", null, "e", "f", null, "{}"],
      },
    ]);
    const rows = new CopyRows(EXPORT_FORMATS.csv.line);
    expect(rows.push(bytes.subarray(0, bytes.length - 2)).toString()).toBe(
      "0192b7a0-0000-7000-8000-000000000001,2026-11-23T09:15:02.123Z,a,b,c,,e,f,,{}\r\n",
    );
    expect(rows.complete).toBe(false);
    rows.push(bytes.subarray(bytes.length - 2));
    expect(rows.complete).toBe(true);
  });
});

describe("csvCell", () => {
  it("quotes only where RFC 4180 needs it, keeps empty text apart from NULL, and defuses formulas", () => {
    expect(csvCell(null)).toBe("");
    expect(csvCell("")).toBe('""');
    expect(csvCell("plain")).toBe("plain");
    expect(csvCell('say "hi", then\nleave')).toBe('"say ""hi"", then\nleave"');
    expect(csvCell("=HYPERLINK(1)")).toBe("'=HYPERLINK(1)");
    expect(csvCell("@SUM(1,2)")).toBe(`"'@SUM(1,2)"`);
    expect(csvCell("\tx")).toBe("'\tx");
    expect(csvCell("\rx")).toBe(`"'\rx"`);
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

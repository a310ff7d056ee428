// COPY's binary framing taken apart in chunks of any size, written back as NDJSON and CSV lines.
import { parse } from "csv-parse/sync";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CopyRows } from "~/audit/export/copy-rows";
import { EXPORT_FORMATS } from "~/audit/export/formats";

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

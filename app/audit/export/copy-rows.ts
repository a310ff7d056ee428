// COPY's binary output, taken apart in chunks of any size as they arrive, each complete row
// written as a line of the file (formats.ts).
import { ExportRow, FIELD_COUNT, NAMES_IN_ROWS, type RowLine, type RowNames } from "~/audit/export/export-row";

/** COPY's binary framing: a 19-byte signature and header (plus an extension), then per row a field
 * count (int16) and its fields (export-row.ts), then -1 as the trailer. */
const SIGNATURE = "PGCOPY\n\xff\r\n\0";
const SIGNATURE_BYTES = 19;
const EMPTY = Buffer.alloc(0);

/**
 * Takes COPY's binary output in chunks of any size and gives back the file's bytes for the rows
 * they complete, each written by `line`. A row split across chunks is carried over (at most one
 * row). PostgreSQL reads, filters and names the rows while this process writes the previous
 * chunk's lines: the two run side by side on separate cores.
 */
export class CopyRows {
  #carry: Buffer | null = null;
  #started = false;
  #ended = false;
  readonly #row = new ExportRow();

  constructor(
    private readonly line: RowLine,
    private readonly names: RowNames = NAMES_IN_ROWS,
  ) {}

  /** The trailer arrived: every row is in. */
  get complete(): boolean {
    return this.#ended;
  }

  push(chunk: Buffer): Buffer {
    const buf = this.#carry ? Buffer.concat([this.#carry, chunk]) : chunk;
    this.#carry = null;
    let pos = 0;
    if (!this.#started) {
      if (buf.length >= 11 && buf.toString("latin1", 0, 11) !== SIGNATURE) throw new Error("not COPY binary output");
      const headerEnd = buf.length < SIGNATURE_BYTES ? Infinity : SIGNATURE_BYTES + buf.readUInt32BE(15);
      if (buf.length < headerEnd) {
        this.#carry = Buffer.from(buf);
        return EMPTY;
      }
      this.#started = true;
      pos = headerEnd;
    }
    const row = this.#row;
    row.startChunk(buf);
    let out = "";
    while (!this.#ended && pos + 2 <= buf.length) {
      const fields = buf.readInt16BE(pos);
      if (fields === -1) {
        this.#ended = true;
        pos += 2;
        break;
      }
      if (fields !== FIELD_COUNT) throw new Error(`unexpected COPY row with ${fields} fields`);
      const end = row.readFields(pos + 2);
      if (end < 0) break;
      out += this.line(row, this.names);
      pos = end;
    }
    if (pos < buf.length && !this.#ended) this.#carry = Buffer.from(buf.subarray(pos));
    row.endChunk();
    return out ? Buffer.from(out, "latin1") : EMPTY;
  }
}

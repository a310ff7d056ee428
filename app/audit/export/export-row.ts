// One row of the COPY's binary output, read by column name. A row is not copied out of its chunk:
// an ExportRow points at where each field starts and how long it is, and its accessors write a
// field's text only when a line asks for it. CopyRows (copy-rows.ts) keeps one ExportRow and
// points it at each row in turn, so reading a row allocates nothing but the lines' text.
import { isoTime, uuidText } from "~/audit/export/binary-values";
import { columnIndex, EXPORT_COLUMNS } from "~/audit/export/columns";

/** Fields per row: the columns, always all of them (NULL where a value is missing). */
export const FIELD_COUNT = EXPORT_COLUMNS.length;

const ID = columnIndex("id");
const CREATED_AT = columnIndex("createdAt");
const ACTION = columnIndex("action");
const ACTOR_KIND = columnIndex("actorKind");
const ACTOR_ID = columnIndex("actorId");
const ACTOR_NAME = columnIndex("actorName");
const TARGET_TYPE = columnIndex("targetType");
const TARGET_ID = columnIndex("targetId");
const TARGET_NAME = columnIndex("targetName");
const DETAILS = columnIndex("details");

const EMPTY = Buffer.alloc(0);

/**
 * The row's fields are where they start in the chunk and their lengths (-1: NULL). The text
 * columns are slices of the chunk read as a latin1 string (one character per byte), made once per
 * chunk: a text field is then a slice instead of a UTF-8 decoding of its own, and the lines go
 * back to bytes through latin1 as well, so every byte of PostgreSQL's UTF-8 comes out as it came
 * in. What the lines look at (quotes, commas, line breaks, a formula's first character, JSON's
 * escapes) is all ASCII, which UTF-8's multibyte sequences never contain, so the lines are the
 * same as from decoded text. The export's transaction asks for UTF-8 whatever the database's own
 * encoding (EXPORT_SETTINGS, sql.server.ts).
 */
export class ExportRow {
  #buf: Buffer = EMPTY;
  #str = "";
  readonly #starts = new Int32Array(FIELD_COUNT);
  readonly #lengths = new Int32Array(FIELD_COUNT);

  /** The rows read next are in `buf`. */
  startChunk(buf: Buffer): void {
    this.#buf = buf;
    this.#str = buf.toString("latin1");
  }

  /** Lets go of the chunk (a row cut off at its end is carried over as a copy). */
  endChunk(): void {
    this.#buf = EMPTY;
    this.#str = "";
  }

  /**
   * Takes apart the row whose first field starts at `at` in the chunk (after the row's field
   * count): per field its length (int32, -1 for NULL) and bytes. Gives the position after the
   * row, or -1 when the chunk ends inside it.
   */
  readFields(at: number): number {
    const buf = this.#buf;
    let i = 0;
    for (; i < FIELD_COUNT && at + 4 <= buf.length; i++) {
      const length = buf.readInt32BE(at);
      this.#starts[i] = at + 4;
      this.#lengths[i] = length;
      at += 4 + Math.max(length, 0);
      if (at > buf.length) break;
    }
    return i < FIELD_COUNT ? -1 : at;
  }

  id(): string {
    return uuidText(this.#buf, this.#starts[ID]!);
  }

  createdAt(): string {
    return isoTime(this.#buf, this.#starts[CREATED_AT]!);
  }

  action(): string | null {
    return this.#text(ACTION);
  }

  actorKind(): string | null {
    return this.#text(ACTOR_KIND);
  }

  actorId(): string | null {
    return this.#text(ACTOR_ID);
  }

  /** The name the COPY's own lookups found; NULL when a NameDirectory names the rows. */
  actorName(): string | null {
    return this.#text(ACTOR_NAME);
  }

  targetType(): string | null {
    return this.#text(TARGET_TYPE);
  }

  targetId(): string | null {
    return this.#text(TARGET_ID);
  }

  /** The name the COPY's own lookups found; NULL when a NameDirectory names the rows. */
  targetName(): string | null {
    return this.#text(TARGET_NAME);
  }

  /** jsonb's own text of the details object. */
  details(): string | null {
    return this.#text(DETAILS);
  }

  #text(i: number): string | null {
    const length = this.#lengths[i]!;
    if (length < 0) return null;
    const start = this.#starts[i]!;
    return this.#str.slice(start, start + length);
  }
}

/** Where a row's actor and target names come from: its own fields (the COPY looked them up) or a
 * NameDirectory read before the COPY (name-directory.server.ts). Either gives latin1 text of
 * UTF-8 bytes, as the row's own text does. */
export interface RowNames {
  actor(row: ExportRow): string | null;
  target(row: ExportRow): string | null;
}

/** The names the COPY's own lookups put into the row (its actorName and targetName). */
export const NAMES_IN_ROWS: RowNames = {
  actor: (row) => row.actorName(),
  target: (row) => row.targetName(),
};

/** A format's line for one row (csv-writer.ts, ndjson-writer.ts). */
export type RowLine = (row: ExportRow, names: RowNames) => string;

#!/usr/bin/env node
// KeyLedger's offline audit verifier: checks an exported audit log against the organization's
// signed digests and the published public keys, with nothing but Node (>= 20) and no access to
// the server. One self-contained file: copy it anywhere. Documented in docs/offline-verification.md
// (the digest format: docs/audit-digests.md; why it works this way: docs/decisions/0063-offline-audit-proof.md).
//
// Usage:
//   node verify-audit-export.mjs --export audit-log.ndjson --digests digests.json --keys audit-log-keys.json
//
//   --export   the NDJSON export (GET /api/organizations/:id/audit-log/export?format=json). CSV cannot be
//              checked: its formula protection changes some cells' text (a leading '), so the sealed
//              content cannot be rebuilt from it exactly.
//   --digests  the digests manifest for the same filters (GET /api/organizations/:id/audit-log/digests,
//              "Download digests for offline verification" on the audit log page).
//   --keys     the published keys, saved from GET /.well-known/audit-log-keys.json. Without it the
//              manifest's own copy of the keys is used, with a warning: whoever could alter the log could
//              also have replaced them, so compare their ids with the published ones.
//
// What it checks: every digest's Ed25519 signature and key; the chain between consecutive digests
// (sequence numbers without gaps, each `after` the previous `last`, each previousDigestSha256 the
// SHA-256 of the previous signed text); each digest's entries against its eventsSha256; each
// exported event's canonical content hash against the entry of the same id; and, when the export was
// not filtered by action, actor or target, that every sealed event created in the range is in the file.
//
// Exit 0 and "intact" when everything checked holds; 1 with one line per finding; 2 for bad
// arguments or files that cannot be read.
import { createHash, createPublicKey, verify } from "node:crypto";
import { createReadStream, readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

export const MANIFEST_FORMAT = "keyledger-audit-manifest/1";
export const DIGEST_FORMAT = "keyledger-audit-digest/1";
const ENTRY_BYTES = 56;
/** An event created this long before the newest digest closed would be in it (its transaction had ended). */
const SEALING_MARGIN_MS = 10 * 60 * 1000;
/**
 * The longest export line read: far above any event the server writes, low enough that a file of
 * one endless line (a device, a damaged download) ends with a message instead of filling memory.
 */
const MAX_LINE_CHARS = 64 * 1024 * 1024;
/** How much of a value read from a file a message repeats. */
const SHOWN_CHARS = 200;

/** A problem with the arguments or the files: exit 2. */
export class UsageError extends Error {}

// ---- The sealed content: byte for byte app/lib/canonical-json.ts and app/audit-integrity/event-content.ts.

/** Canonical JSON (RFC 8785 for JSON.parse values): keys sorted by UTF-16 code units, no whitespace. */
export function canonicalJson(value) {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** The sealed text of an exported event (an NDJSON line's object) of the organization. */
export function canonicalEventText(event, organizationId) {
  return canonicalJson({
    action: event.action,
    actorId: event.actorId,
    actorKind: event.actorKind,
    createdAt: new Date(Date.parse(event.createdAt)).toISOString(),
    details: event.details,
    id: event.id,
    organizationId,
    targetId: event.targetId,
    targetType: event.targetType,
  });
}

/** SHA-256 (hex) of the event's sealed text. */
export function eventSha256Hex(event, organizationId) {
  return createHash("sha256").update(canonicalEventText(event, organizationId)).digest("hex");
}

const sha256Hex = (data) => createHash("sha256").update(data).digest("hex");

/**
 * A value read from a file, as a message may show it: control characters escaped (a hostile file
 * must not drive the terminal that shows the verdict) and cut short.
 */
export function shown(value) {
  const text = typeof value === "string" ? value : String(JSON.stringify(value));
  const cut = text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}…` : text;
  return Array.from(cut, (c) => (isUnsafeCharacter(c.codePointAt(0)) ? `\\u${c.codePointAt(0).toString(16).padStart(4, "0")}` : c)).join(
    "",
  );
}

/** C0 and C1 controls (ESC starts a terminal's escape sequences), line separators, bidirectional overrides. */
function isUnsafeCharacter(code) {
  return (
    code < 0x20 ||
    (code >= 0x7f && code <= 0x9f) ||
    code === 0x2028 ||
    code === 0x2029 ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069)
  );
}

function uuidText(buf, at) {
  const hex = buf.toString("hex", at, at + 16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

// ---- Reading the inputs.

/** The arguments as {exportPath, digestsPath, keysPath?}; a UsageError for anything else. */
export function parseArguments(argv) {
  const names = { "--export": "exportPath", "--digests": "digestsPath", "--keys": "keysPath" };
  const options = {};
  for (let i = 0; i < argv.length; i++) {
    const name = names[argv[i]];
    if (!name) throw new UsageError(`Unknown argument: ${argv[i]}`);
    if (options[name] !== undefined) throw new UsageError(`${argv[i]} given twice.`);
    const value = argv[++i];
    if (value === undefined || value.startsWith("--")) throw new UsageError(`${argv[i - 1]} needs a file name.`);
    options[name] = value;
  }
  if (!options.exportPath || !options.digestsPath) throw new UsageError("--export and --digests are required.");
  return options;
}

function readJsonFile(path, what) {
  let text;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new UsageError(`Cannot read the ${what} ${path}: ${error.message}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new UsageError(`The ${what} ${path} is not JSON.`);
  }
}

/** The "keys" list of a keys file (undefined when the file is not an object: trustedKeys says so). */
const keysListOf = (file) => (file !== null && typeof file === "object" && !Array.isArray(file) ? file.keys : undefined);

/** The manifest's shape (what it claims is checked later). */
export function checkManifestShape(manifest) {
  const ok =
    manifest &&
    manifest.format === MANIFEST_FORMAT &&
    typeof manifest.organizationId === "string" &&
    Array.isArray(manifest.digests) &&
    manifest.digests.every(
      (d) =>
        d &&
        Number.isInteger(d.sequence) &&
        typeof d.document === "string" &&
        typeof d.signature === "string" &&
        typeof d.entries === "string",
    );
  if (!ok) throw new UsageError(`The digests file is not a ${MANIFEST_FORMAT} manifest.`);
  return manifest;
}

/**
 * Trusted keys by id. The id is computed from the key itself, whatever the file says. The map's
 * `currentId` is the key listed with status "current" (the published keys say which), if any.
 */
export function trustedKeys(list, source) {
  if (!Array.isArray(list)) throw new UsageError(`${source} has no "keys" list.`);
  const keys = new Map();
  for (const entry of list) {
    if (!entry || entry.alg !== "Ed25519" || typeof entry.publicKey !== "string") continue;
    let key;
    try {
      key = createPublicKey(entry.publicKey);
    } catch {
      throw new UsageError(`${source} holds a key that is not a PEM public key (id ${shown(entry.id)}).`);
    }
    const id = sha256Hex(key.export({ type: "spki", format: "der" })).slice(0, 16);
    keys.set(id, key);
    if (entry.status === "current" && keys.currentId === undefined) keys.currentId = id;
  }
  return keys;
}

// ---- The digests.

function eventLabel(event) {
  return `${shown(event.id)} (${shown(event.action)}, ${shown(event.createdAt)})`;
}

/**
 * Every sealed entry by event id, kept compact (the entries' own bytes, a number per id): a
 * million events in a few hundred MB rather than a gigabyte.
 */
class SealedEntries {
  #byId = new Map();
  #blobs = [];
  #sequences = [];
  #seen = [];

  /** Adds a digest's entries; gives the ids some earlier digest already holds. */
  add(sequence, entries) {
    const blob = this.#blobs.length;
    this.#blobs.push(entries);
    this.#sequences.push(sequence);
    this.#seen.push(new Uint8Array(entries.length / ENTRY_BYTES));
    const duplicates = [];
    for (let i = 0; (i + 1) * ENTRY_BYTES <= entries.length; i++) {
      const id = uuidText(entries, i * ENTRY_BYTES);
      const earlier = this.#byId.get(id);
      if (earlier === undefined) this.#byId.set(id, blob * 2 ** 24 + i);
      else duplicates.push({ id, sequence: this.#sequences[Math.floor(earlier / 2 ** 24)] });
    }
    return duplicates;
  }

  #entry(packed) {
    const blob = Math.floor(packed / 2 ** 24);
    const i = packed % 2 ** 24;
    const at = i * ENTRY_BYTES;
    const bytes = this.#blobs[blob];
    return {
      blob,
      i,
      sequence: this.#sequences[blob],
      createdAtMs: Number(bytes.readBigInt64BE(at + 16)),
      sha256: bytes.subarray(at + 24, at + ENTRY_BYTES),
    };
  }

  /** The entry of the event, or undefined. */
  get(id) {
    const packed = this.#byId.get(id);
    return packed === undefined ? undefined : this.#entry(packed);
  }

  /** Marks the entry as found in the file; false when it already was (the event is in the file twice). */
  markSeen(entry) {
    const seen = this.#seen[entry.blob];
    if (seen[entry.i]) return false;
    seen[entry.i] = 1;
    return true;
  }

  /** The entries not found in the file: {id, sequence, createdAtMs}. */
  *unseen() {
    for (const [id, packed] of this.#byId) {
      const entry = this.#entry(packed);
      if (!this.#seen[entry.blob][entry.i]) yield { id, sequence: entry.sequence, createdAtMs: entry.createdAtMs };
    }
  }
}

/**
 * Checks the digests' signatures, chain and entries. Gives the findings, the entries by event id
 * ({sequence, createdAtMs, sha256, seen}) and the documents in sequence order.
 */
export function checkDigests(manifest, keys) {
  const findings = [];
  const parsed = [];
  manifest.digests.forEach((item, index) => {
    let doc;
    try {
      doc = JSON.parse(item.document);
    } catch {
      findings.push(`BAD DIGEST: the digest listed as ${item.sequence} has a document that is not JSON.`);
      return;
    }
    if (!doc || doc.format !== DIGEST_FORMAT || !Number.isInteger(doc.sequence)) {
      findings.push(`BAD DIGEST: the digest listed as ${item.sequence} is not a ${DIGEST_FORMAT} document.`);
      return;
    }
    if (doc.sequence !== item.sequence)
      findings.push(`SWAPPED DIGEST: the digest listed as ${item.sequence} holds the signed document of digest ${doc.sequence}.`);
    if (index > 0 && item.sequence <= manifest.digests[index - 1].sequence)
      findings.push(`DIGESTS OUT OF ORDER: digest ${item.sequence} is listed after digest ${manifest.digests[index - 1].sequence}.`);
    if (doc.organizationId !== manifest.organizationId)
      findings.push(
        `FOREIGN DIGEST: digest ${doc.sequence} belongs to organization ${shown(doc.organizationId)}, not ${shown(manifest.organizationId)}.`,
      );
    const key = keys.get(doc.keyId);
    if (!key)
      findings.push(`UNKNOWN KEY: digest ${doc.sequence} is signed with key ${shown(doc.keyId)}, which is not among the trusted keys.`);
    else if (!signatureHolds(key, item.document, item.signature))
      findings.push(`BAD SIGNATURE: digest ${doc.sequence}'s signature does not hold for its document (key ${shown(doc.keyId)}).`);
    const entries = Buffer.from(item.entries, "base64");
    item.entries = ""; // the decoded bytes are kept; a million events' base64 need not be
    if (entries.length % ENTRY_BYTES !== 0 || sha256Hex(entries) !== doc.eventsSha256 || entries.length / ENTRY_BYTES !== doc.eventCount)
      findings.push(`ENTRIES ALTERED: digest ${doc.sequence}'s entries are not the ones its document seals (eventsSha256, eventCount).`);
    parsed.push({ doc, text: item.document, entries });
  });
  parsed.sort((a, b) => a.doc.sequence - b.doc.sequence);
  let missing = 0;
  const missingDigests = (first, last, where) => {
    missing += last - first + 1;
    const which = first === last ? `digest ${first} is` : `digests ${first} to ${last} are`;
    findings.push(`MISSING DIGEST: ${which} not in the manifest (${where}); the events they sealed cannot be checked.`);
  };
  // The whole log from its start holds digest 1 on; an open end holds the newest digest the server had.
  const firstListed = parsed.length ? parsed[0].doc.sequence : null;
  const lastListed = parsed.length ? parsed[parsed.length - 1].doc.sequence : 0;
  const newest = manifest.newestDigest && Number.isInteger(manifest.newestDigest.sequence) ? manifest.newestDigest.sequence : 0;
  if (manifest.from == null && firstListed !== null && firstListed > 1) missingDigests(1, firstListed - 1, `before digest ${firstListed}`);
  if (manifest.to == null && (parsed.length > 0 || manifest.from == null) && newest > lastListed)
    missingDigests(
      lastListed + 1,
      newest,
      lastListed ? `after digest ${lastListed}, the newest being ${newest}` : `the newest being ${newest}`,
    );
  for (let i = 1; i < parsed.length; i++) {
    const previous = parsed[i - 1].doc;
    const doc = parsed[i].doc;
    if (doc.sequence === previous.sequence) continue;
    if (doc.sequence !== previous.sequence + 1) {
      missingDigests(previous.sequence + 1, doc.sequence - 1, `between ${previous.sequence} and ${doc.sequence}`);
      continue;
    }
    if (doc.previousDigestSha256 !== sha256Hex(parsed[i - 1].text) || canonicalJson(doc.after) !== canonicalJson(previous.last))
      findings.push(`CHAIN BROKEN: digest ${doc.sequence} does not continue digest ${previous.sequence} (previousDigestSha256 or after).`);
  }
  findings.push(
    ...replacedKeyFindings(
      parsed.map((p) => p.doc),
      keys,
    ),
  );
  const sealed = new SealedEntries();
  for (const { doc, entries } of parsed) {
    for (const duplicate of sealed.add(doc.sequence, entries))
      findings.push(`SEALED TWICE: event ${duplicate.id} is in digest ${duplicate.sequence} and digest ${doc.sequence}.`);
  }
  return { findings, sealed, documents: parsed.map((p) => p.doc), missing };
}

/**
 * Digests signed with a key the chain had already moved on from: a rotation replaces a key for
 * good, so a replaced key signing again, or any key but the current one once the current one has
 * signed, is someone holding a retired key's private half. A digest so named is passed over (it
 * retires no key), so the genuine digests after it are not named; an untrusted key is its own
 * finding (UNKNOWN KEY) and no rotation.
 */
function replacedKeyFindings(docs, keys) {
  const findings = [];
  const replaced = new Set();
  let currentHasSigned = false;
  let previous = null;
  for (const doc of docs) {
    if (!keys.has(doc.keyId)) continue;
    if (replaced.has(doc.keyId) || (currentHasSigned && doc.keyId !== keys.currentId)) {
      findings.push(
        `REPLACED KEY: digest ${doc.sequence} is signed with key ${doc.keyId}, which earlier digests had already been rotated away from (a retired key signing again).`,
      );
      continue;
    }
    if (previous && previous.keyId !== doc.keyId) replaced.add(previous.keyId);
    if (doc.keyId === keys.currentId) currentHasSigned = true;
    previous = doc;
  }
  return findings;
}

function signatureHolds(key, text, signature) {
  try {
    return verify(null, Buffer.from(text, "utf8"), key, Buffer.from(signature, "base64"));
  } catch {
    return false;
  }
}

// ---- The export against the digests.

const EVENT_FIELDS = ["id", "createdAt", "action", "actorKind", "actorId", "targetType", "targetId"];

/** The range the manifest was made for, as instants: [fromMs, beforeMs). */
function rangeOf(manifest) {
  const day = (value) => (typeof value === "string" ? Date.parse(`${value}T00:00:00.000Z`) : NaN);
  const from = day(manifest.from);
  const to = day(manifest.to);
  return { fromMs: Number.isNaN(from) ? -Infinity : from, beforeMs: Number.isNaN(to) ? Infinity : to + 86_400_000 };
}

/** When the newest digest the server had (or the manifest holds) closed: what "not yet sealed" is judged by. */
function newestClosedMs(manifest, documents) {
  const times = documents.map((doc) => Date.parse(doc.periodEnd));
  if (manifest.newestDigest && typeof manifest.newestDigest.periodEnd === "string") times.push(Date.parse(manifest.newestDigest.periodEnd));
  // A loop, not Math.max(...times): a manifest of some hundred thousand digests would overflow the stack.
  let newest = -Infinity;
  for (const t of times) if (t > newest) newest = t;
  return newest;
}

/** The event's hash; undefined when its details nest deeper than the stack allows. */
function hashOrNull(event, organizationId) {
  try {
    return eventSha256Hex(event, organizationId);
  } catch (error) {
    if (error instanceof RangeError) return undefined;
    throw error;
  }
}

/**
 * Checks each exported event (an async iterable of NDJSON lines) against the sealed entries.
 * Gives {findings, notes, events}.
 */
export async function checkExport(lines, manifest, digests) {
  const findings = [];
  const notes = [];
  const range = rangeOf(manifest);
  const newestClosed = newestClosedMs(manifest, digests.documents);
  /** The file's events in no digest (the sealed ones are marked in `digests.sealed`). */
  const unsealedInFile = new Set();
  let events = 0;
  let newestInFile = -Infinity;
  let notYetSealed = 0;
  let inMissingDigest = 0;
  let matched = 0;
  let lineNumber = 0;
  for await (const line of lines) {
    lineNumber += 1;
    if (line.trim() === "") continue;
    if (lineNumber === 1 && line.startsWith("id,"))
      throw new UsageError("The export is CSV: only the NDJSON export (format=json) can be checked.");
    let event;
    try {
      event = JSON.parse(line);
    } catch {
      throw new UsageError(`Line ${lineNumber} of the export is not JSON: is it the NDJSON export?`);
    }
    if (event && event.error === "interrupted") {
      findings.push(`INCOMPLETE EXPORT: the file ends with the server's interruption line (line ${lineNumber}): export again.`);
      continue;
    }
    if (!event || EVENT_FIELDS.some((name) => typeof event[name] !== "string") || !("details" in event))
      throw new UsageError(`Line ${lineNumber} of the export is not an audit event.`);
    events += 1;
    const createdAtMs = Date.parse(event.createdAt);
    if (!Number.isNaN(createdAtMs)) newestInFile = Math.max(newestInFile, createdAtMs);
    const entry = digests.sealed.get(event.id);
    if (entry ? !digests.sealed.markSeen(entry) : unsealedInFile.has(event.id)) {
      findings.push(`DUPLICATED EVENT: ${eventLabel(event)} is in the file twice.`);
      continue;
    }
    if (!entry) {
      unsealedInFile.add(event.id);
      if (Number.isNaN(createdAtMs) || createdAtMs < range.fromMs || createdAtMs >= range.beforeMs)
        findings.push(
          `NOT COVERED: ${eventLabel(event)} was created outside the digests' range: download the digests for the export's dates.`,
        );
      else if (createdAtMs > newestClosed - SEALING_MARGIN_MS) notYetSealed += 1;
      else if (digests.missing > 0) inMissingDigest += 1;
      else findings.push(`INSERTED EVENT: ${eventLabel(event)} is in no digest, though it was created before the newest digest closed.`);
      continue;
    }
    matched += 1;
    const hash = Number.isNaN(createdAtMs) ? null : hashOrNull(event, manifest.organizationId);
    if (hash === undefined)
      findings.push(`UNCHECKED EVENT: ${eventLabel(event)} has details nested too deeply to hash here; it was not checked.`);
    else if (hash !== entry.sha256.toString("hex"))
      findings.push(`ALTERED EVENT: ${eventLabel(event)} is not what digest ${entry.sequence} sealed.`);
  }
  // "intact" must never mean "nothing was compared" (no digests yet, no signing key, a manifest emptied).
  if (events > 0 && matched === 0)
    findings.push(`NOTHING CHECKED: none of the file's ${events} event(s) is in a digest of the manifest, so none could be checked.`);
  // Not "inserted": a digest the manifest lacks may have sealed them.
  if (inMissingDigest > 0)
    findings.push(
      `UNCHECKED EVENTS: ${inMissingDigest} event(s) of the file are in no digest the manifest holds; the missing digests may hold them.`,
    );
  if (notYetSealed > 0)
    notes.push(
      `${notYetSealed} event(s) of the file were not yet sealed when the digests were downloaded (created after the newest digest): download the digests again after the next one to check them.`,
    );
  const filtered = ["action", "actorId", "targetId"].filter((name) => manifest.filters && manifest.filters[name] !== undefined);
  if (filtered.length > 0) {
    notes.push(
      `The digests were downloaded for a filtered export (${filtered.join(", ")}): whether events are missing from the file was not checked.`,
    );
    return { findings, notes, events };
  }
  let afterNewest = 0;
  for (const { id, sequence, createdAtMs } of digests.sealed.unseen()) {
    if (createdAtMs < range.fromMs || createdAtMs >= range.beforeMs) continue;
    // Committed after the export's snapshot (its own audit.exported event is one): not expected in it.
    if (events > 0 && createdAtMs > newestInFile) afterNewest += 1;
    else
      findings.push(
        `MISSING EVENT: ${id} (created ${new Date(createdAtMs).toISOString()}), sealed in digest ${sequence}, is not in the file.`,
      );
  }
  if (afterNewest > 0)
    notes.push(
      `${afterNewest} sealed event(s) created after the file's newest event are not in it: they were committed after the export was taken.`,
    );
  return { findings, notes, events };
}

// ---- The command.

/**
 * The export's lines, split at "\n" only: readline would also split at U+2028 and U+2029, which
 * JSON.stringify leaves unescaped inside strings (a detail may hold them). Each chunk is searched
 * once (a long line costs its length, not its length squared), and a line longer than
 * MAX_LINE_CHARS ends the check. A read failing after the file opened (a directory) is a UsageError.
 */
async function* splitLines(stream, path) {
  let pieces = [];
  let length = 0;
  let lineNumber = 1;
  const tooLong = () =>
    new UsageError(`Line ${lineNumber} of the export is longer than ${MAX_LINE_CHARS / 1024 / 1024} MiB: is it the NDJSON export?`);
  try {
    for await (const chunk of stream) {
      let start = 0;
      let end;
      while ((end = chunk.indexOf("\n", start)) !== -1) {
        if (length + end - start > MAX_LINE_CHARS) throw tooLong();
        pieces.push(chunk.slice(start, end));
        yield pieces.join("");
        pieces = [];
        length = 0;
        lineNumber += 1;
        start = end + 1;
      }
      if (start < chunk.length) {
        pieces.push(chunk.slice(start));
        length += chunk.length - start;
        if (length > MAX_LINE_CHARS) throw tooLong();
      }
    }
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`Cannot read the export ${path}: ${error.message}`);
  } finally {
    stream.destroy();
  }
  if (pieces.length > 0) yield pieces.join("");
}

function exportLines(path) {
  const stream = createReadStream(path, { encoding: "utf8" });
  return { stream, lines: splitLines(stream, path) };
}

/** Runs the verifier; gives the exit code. `out` and `err` take one line each. */
export async function main(argv, out = console.log, err = console.error) {
  try {
    const options = parseArguments(argv);
    const manifest = checkManifestShape(readJsonFile(options.digestsPath, "digests file"));
    let keys;
    if (options.keysPath) {
      keys = trustedKeys(keysListOf(readJsonFile(options.keysPath, "keys file")), "The keys file");
    } else {
      keys = trustedKeys(manifest.keys, "The digests file");
      err(
        `Warning: no --keys given; trusting the digests file's own keys (${[...keys.keys()].join(", ") || "none"}). Compare these ids with GET /.well-known/audit-log-keys.json.`,
      );
    }
    const digests = checkDigests(manifest, keys);
    const { stream, lines } = exportLines(options.exportPath);
    const opened = new Promise((resolve, reject) => {
      stream.once("open", resolve);
      stream.once("error", (error) => reject(new UsageError(`Cannot read the export ${options.exportPath}: ${error.message}`)));
    });
    await opened;
    const result = await checkExport(lines, manifest, digests);
    const findings = [...digests.findings, ...result.findings];
    const sequences = digests.documents.map((doc) => doc.sequence);
    out(
      `Checked ${result.events} event(s) against ${sequences.length} digest(s)${sequences.length ? ` (${sequences[0]} to ${sequences[sequences.length - 1]})` : ""} of organization ${manifest.organizationId}.`,
    );
    for (const finding of findings) out(finding);
    for (const note of result.notes) out(`Note: ${note}`);
    if (findings.length === 0) {
      out("intact");
      return 0;
    }
    out(`NOT INTACT: ${findings.length} finding(s).`);
    return 1;
  } catch (error) {
    if (error instanceof UsageError) {
      err(error.message);
      err("Usage: node verify-audit-export.mjs --export audit-log.ndjson --digests digests.json [--keys audit-log-keys.json]");
      return 2;
    }
    // Whatever else a hostile file provokes: one line, not a stack trace, and not exit 1 ("findings").
    err(`The files could not be checked: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2));
}

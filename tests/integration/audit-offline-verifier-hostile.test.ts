// scripts/verify-audit-export.mjs given hostile files (docs/offline-verification.md): whatever it
// is handed, it ends with exit 2 (the files cannot be checked) or 1 (findings) and a line that says
// why, never a stack trace, a hang or a verdict of "intact" it did not earn.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { v7 as uuidv7 } from "uuid";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const SCRIPT = join(import.meta.dirname, "..", "..", "scripts", "verify-audit-export.mjs");
const ORGANIZATION = "0193c2a0-0000-7000-8000-000000000001";
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "verifier-hostile-"));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function file(name: string, content: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the verifier as a process; killed (code null) if it has not ended within a minute. */
function verifier(args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [SCRIPT, ...args], { timeout: 60_000, maxBuffer: 256 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : null) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** Neither a stack trace nor Node's report of an uncaught error. */
function expectNoTrace(run: Run) {
  expect(run.stderr + run.stdout).not.toMatch(/\n\s+at |Node\.js v|triggerUncaughtException|^\w*Error:/m);
}

const EMPTY_KEYS = () => file("keys.json", JSON.stringify({ keys: [] }));

/** A manifest of one digest sealing the given event ids (not signed: an unknown key is a finding, not a stop). */
function manifestSealing(ids: string[], overrides: Record<string, unknown> = {}) {
  const entries = Buffer.alloc(56 * ids.length);
  ids.forEach((id, i) => {
    Buffer.from(id.replace(/-/g, ""), "hex").copy(entries, i * 56);
    entries.writeBigInt64BE(BigInt(Date.parse("2026-01-01T00:00:00.000Z")), i * 56 + 16);
  });
  const document = JSON.stringify({
    format: "keyledger-audit-digest/1",
    organizationId: ORGANIZATION,
    sequence: 1,
    after: null,
    last: null,
    eventCount: ids.length,
    eventsSha256: createHash("sha256").update(entries).digest("hex"),
    previousDigestSha256: null,
    periodStart: null,
    periodEnd: "2026-01-02T00:00:00.000Z",
    keyId: "0000000000000000",
    ...overrides,
  });
  return {
    format: "keyledger-audit-manifest/1",
    organizationId: ORGANIZATION,
    from: null,
    to: null,
    digests: [{ sequence: 1, document, signature: "", entries: entries.toString("base64") }],
    keys: [],
  };
}

/** The verifier on one export file (or device) against a manifest, with no keys. */
const verifyExport = (exportPath: string, manifest: unknown) =>
  verifier(["--export", exportPath, "--digests", file("m.json", JSON.stringify(manifest)), "--keys", EMPTY_KEYS()]);

const eventLine = (id: string, details: string) =>
  `{"id":"${id}","createdAt":"2026-01-01T00:00:00.000Z","action":"member.role_changed","actorKind":"user","actorId":"u","targetType":"user","targetId":"u","details":${details}}`;

describe("the offline verifier with hostile files", () => {
  it("refuses a keys file that is not an object with exit 2 and a clear line", async () => {
    const id = uuidv7();
    const manifest = file("m.json", JSON.stringify(manifestSealing([id])));
    const exported = file("one.ndjson", `${eventLine(id, "{}")}\n`);
    for (const keys of ["null", "[]", '"keys"', '{"keys":null}', '{"keys":[null,1,"x",{"alg":"Ed25519","publicKey":5}]}']) {
      const run = await verifier(["--export", exported, "--digests", manifest, "--keys", file("k.json", keys)]);
      expectNoTrace(run);
      if (keys.startsWith('{"keys":[')) expect(run.code, keys).toBe(1);
      else {
        expect(run.code, keys).toBe(2);
        expect(run.stderr, keys).toMatch(/keys file/);
      }
    }
  });

  it("refuses an export that is a directory or cannot be read with exit 2", async () => {
    const run = await verifyExport(dir, manifestSealing([]));
    expectNoTrace(run);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^Cannot read the export .*: EISDIR/);
  });

  it(
    "ends an endless line (a device, a file of one huge line) with exit 2 instead of reading it forever",
    { timeout: 90_000 },
    async () => {
      const run = await verifyExport("/dev/zero", manifestSealing([]));
      expectNoTrace(run);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/^Line 1 of the export is longer than 64 MiB/);
    },
  );

  it("reads a long line whole, splitting only at newlines", { timeout: 90_000 }, async () => {
    const id = uuidv7();
    const long = eventLine(id, JSON.stringify({ note: "x".repeat(8 * 1024 * 1024) }));
    const run = await verifyExport(file("long.ndjson", `${long}\n`), manifestSealing([id]));
    expectNoTrace(run);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`ALTERED EVENT: ${id}`);
  });

  it("names an event whose details nest too deeply to hash instead of crashing", async () => {
    const id = uuidv7();
    const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    const run = await verifyExport(file("deep.ndjson", `${eventLine(id, deep)}\n`), manifestSealing([id]));
    expectNoTrace(run);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`UNCHECKED EVENT: ${id} (member.role_changed, 2026-01-01T00:00:00.000Z) has details nested too deeply`);
  });

  it("shows values read from the files with control characters escaped: no terminal escapes, no bidi overrides", async () => {
    const id = uuidv7();
    const line = eventLine(id, "{}").replace('"member.role_changed"', JSON.stringify("\u001b[2J\u001b]0;owned\u0007\u202e"));
    const run = await verifyExport(file("escape.ndjson", `${line}\n`), manifestSealing([id], { keyId: "\u001b[31mred" }));
    expect(run.code).toBe(1);
    for (const raw of ["\u001b", "\u0007", "\u202e"]) expect(run.stdout).not.toContain(raw);
    expect(run.stdout).toContain(`ALTERED EVENT: ${id} (\\u001b[2J\\u001b]0;owned\\u0007\\u202e, `);
    expect(run.stdout).toContain("signed with key \\u001b[31mred,");
  });

  it("answers manifests with wrong types, junk base64, odd entries, duplicate sequences and huge counts with findings", async () => {
    const id = uuidv7();
    const exported = file("one.ndjson", `${eventLine(id, "{}")}\n`);
    const good = manifestSealing([id]);
    const digest = good.digests[0]!;
    const manifests: unknown[] = [
      { ...good, digests: [{ ...digest, entries: "!!!not base64!!!" }] },
      { ...good, digests: [{ ...digest, entries: Buffer.alloc(57).toString("base64") }] },
      { ...good, digests: [digest, { ...digest }] },
      { ...good, digests: [{ ...digest, document: "null" }] },
      { ...good, digests: [{ ...digest, document: "[]" }] },
      { ...good, digests: [{ ...digest, document: "{" }] },
      manifestSealing([id], { eventCount: 1e308, sequence: 2 ** 53 - 1, after: { x: [1] }, periodEnd: 5, keyId: { id: 1 } }),
      { ...good, newestDigest: { sequence: 2 ** 53 - 1, periodEnd: [] }, filters: "x" },
      { ...good, from: 5, to: {} },
    ];
    for (const manifest of manifests) {
      const run = await verifyExport(exported, manifest);
      expectNoTrace(run);
      expect(run.code, JSON.stringify(manifest).slice(0, 300)).toBe(1);
      expect(run.stdout).toMatch(/NOT INTACT/);
    }
    for (const junk of ["", "\u0000\u0001binary", "[]", '{"format":"keyledger-audit-manifest/1","digests":[{"sequence":"1"}]}']) {
      const run = await verifier(["--export", exported, "--digests", file("m.json", junk), "--keys", EMPTY_KEYS()]);
      expectNoTrace(run);
      expect(run.code, junk).toBe(2);
    }
  });

  it("checks a manifest of very many digests without overflowing", { timeout: 90_000 }, async () => {
    const base = manifestSealing([]);
    const digests = Array.from({ length: 200_000 }, (_, i) => ({
      ...base.digests[0]!,
      sequence: i + 1,
      document: JSON.stringify({ ...JSON.parse(base.digests[0]!.document), sequence: i + 1 }),
    }));
    const run = await verifier([
      "--export",
      file("empty.ndjson", ""),
      "--digests",
      file("many.json", JSON.stringify({ ...base, digests })),
      "--keys",
      EMPTY_KEYS(),
    ]);
    expectNoTrace(run);
    expect(run.code).toBe(1);
  });
});

// The offline proof (issue 34, deliverable 3) end to end: events with hostile details in the log,
// sealed into signed digests; the NDJSON export and the digests downloaded over real HTTP as an
// owner does; scripts/verify-audit-export.mjs run as a process says "intact". Then the downloaded
// files tampered with, one way at a time, each named exactly with exit 1. And the digests
// download's gate: the export's refusals, bad dates, an empty range, the range's digests.
import { execFile } from "node:child_process";
import { generateKeyPairSync, randomUUID, sign } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { v7 as uuidv7 } from "uuid";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sealOrganization } from "~/audit-integrity/seal.server";
import { digestSha256, documentText, type DigestDocument } from "~/audit-integrity/digest-document";
import { configuredKeys, currentSigningKey, publishedKey, signText, signingKeyId, type SigningKey } from "~/audit-integrity/signing-keys";
import { recordAuditEvent } from "~/audit/record.server";
import { createSession } from "~/auth/session.server";
import { sessionCookieName } from "~/auth/cookies.server";
import { pool, prisma } from "~/db.server";
import type { Role } from "~/generated/prisma/enums";
import { freshKey } from "../audit-integrity";
import { createOrganizationWith, createUser } from "../factories";
import { startInProcessServer, type InProcessServer } from "../app-server";

const SCRIPT = join(import.meta.dirname, "..", "..", "scripts", "verify-audit-export.mjs");
let server: InProcessServer;
let dir: string;

beforeAll(async () => {
  server = await startInProcessServer();
  dir = mkdtempSync(join(tmpdir(), "offline-proof-"));
});

afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(async () => {
  await pool().query("DELETE FROM rate_limits");
});

interface Member {
  userId: string;
  organizationId: string;
  cookie: string;
}

async function memberOf(options: { role?: Role; plan?: string; organizationId?: string } = {}): Promise<Member> {
  const user = await createUser();
  let organizationId = options.organizationId;
  if (organizationId) await prisma.membership.create({ data: { organizationId, userId: user.id, role: options.role ?? "owner" } });
  else
    organizationId = (
      await createOrganizationWith([{ userId: user.id, role: options.role ?? "owner" }], { planId: options.plan ?? "enterprise" })
    ).id;
  const { token } = await createSession(user.id, { twoFactorVerified: false, activeOrganizationId: organizationId });
  return { userId: user.id, organizationId, cookie: `${sessionCookieName()}=${token}` };
}

async function get(member: Member | null, path: string, headers: Record<string, string> = {}) {
  const response = await fetch(server.origin + path, { headers: { ...(member ? { cookie: member.cookie } : {}), ...headers } });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

const digestsPath = (organizationId: string, query = "") =>
  `/api/organizations/${organizationId}/audit-log/digests${query ? `?${query}` : ""}`;
const exportPath = (organizationId: string, query = "") =>
  `/api/organizations/${organizationId}/audit-log/export${query ? `?${query}` : ""}`;

/** Details that have broken canonical JSON (jsonb keeps no NUL; everything else goes in). */
const HOSTILE_DETAILS: unknown[] = [
  // As raw JSON text: jsonb normalizes the numbers and keeps the last of two equal keys.
  {
    raw: '{"big": 1e21, "tiny": 1E-7, "negativeZero": -0, "tenth": 0.10, "huge": 12345678901234567890, "exact": 9007199254740993, "dup": 1, "dup": 2}',
  },
  { text: '😀 𝄞 e\u0301 é \u0001\u001f\u007f\u2028 "quoted" \\ <script>alert(1)</script> &amp;' },
  { "": "empty key", b: 1, a: 2, A: 3, é: 4, "😀": 5, nested: { z: [1, { y: [], x: {} }], w: null } },
  { list: [[[[]]]], flags: [true, false, null], "10": "ten", "9": "nine" },
];

/** The details' JSON text: `{raw}` is written as it stands. */
function rawDetails(details: unknown): string {
  if (details && typeof details === "object" && "raw" in details && typeof details.raw === "string") return details.raw;
  return JSON.stringify(details ?? { name: "k" });
}

/** Events written directly, oldest first, `hoursAgo` before now. */
async function insertEvents(
  organizationId: string,
  events: { hoursAgo: number; details?: unknown; actorId?: string }[],
): Promise<string[]> {
  const ids: string[] = [];
  for (const event of events) {
    const id = uuidv7();
    ids.push(id);
    await pool().query(
      `INSERT INTO audit_events (id, organization_id, created_at, action, actor_kind, actor_id, target_type, target_id, details, content_hash)
       VALUES ($1, $2, now() - make_interval(secs => $3), 'api_key.issued', 'user', $4, 'api_key', $5, $6::jsonb, 'test')`,
      [id, organizationId, event.hoursAgo * 3600, event.actorId ?? "user-1", randomUUID(), rawDetails(event.details)],
    );
  }
  return ids;
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function verifier(args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    // VERIFIER_NODE: another Node to run it with (it promises Node 20 and newer).
    execFile(process.env.VERIFIER_NODE ?? process.execPath, [SCRIPT, ...args], (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
    });
  });
}

function write(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

interface Manifest {
  organizationId: string;
  digests: { sequence: number; document: string; signature: string; entries: string }[];
  keys: unknown[];
  [key: string]: unknown;
}

describe("an owner's export and digests, checked offline", () => {
  let owner: Member;
  let exportText: string;
  let manifestText: string;
  let keysFile: string;
  let lines: string[];

  beforeAll(async () => {
    owner = await memberOf();
    await insertEvents(owner.organizationId, [
      { hoursAgo: 5 },
      ...HOSTILE_DETAILS.map((details, i) => ({ hoursAgo: 4 - i * 0.5, details })),
      { hoursAgo: 2, actorId: "user-2" },
      { hoursAgo: 1.5 },
    ]);
    await prisma.$transaction((tx) =>
      recordAuditEvent(tx, {
        organizationId: owner.organizationId,
        action: "member.role_changed",
        actor: { kind: "user", id: owner.userId },
        target: { type: "user", id: owner.userId },
        details: { from: "admin", to: "owner" },
      }),
    );
    // Three events to a digest: a chain of three.
    const sealed = await sealOrganization(owner.organizationId, currentSigningKey()!, { maxEvents: 3 });
    expect(sealed).toEqual({ digests: 3, events: 8 });
    const exported = await get(owner, exportPath(owner.organizationId, "format=json"));
    expect(exported.status).toBe(200);
    exportText = exported.text;
    lines = exportText.split("\n").filter(Boolean);
    expect(lines).toHaveLength(8);
    const digests = await get(owner, digestsPath(owner.organizationId));
    expect(digests.status).toBe(200);
    expect(digests.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(digests.headers.get("content-disposition")).toMatch(
      /^attachment; filename="audit-digests-org-.*-until-\d{4}-\d{2}-\d{2}\.json"/,
    );
    expect(digests.headers.get("cache-control")).toBe("no-store");
    manifestText = digests.text;
    keysFile = write("keys.json", JSON.stringify({ keys: configuredKeys().map(publishedKey) }));
  });

  const manifest = () => JSON.parse(manifestText) as Manifest;
  const run = (exportContent: string, manifestContent: string | Manifest, extra: string[] = ["--keys", keysFile]) =>
    verifier([
      "--export",
      write(`export-${randomUUID()}.ndjson`, exportContent),
      "--digests",
      write(`digests-${randomUUID()}.json`, typeof manifestContent === "string" ? manifestContent : JSON.stringify(manifestContent)),
      ...extra,
    ]);
  const eventOf = (line: string) => JSON.parse(line) as { id: string; actorId: string; details: Record<string, unknown> };

  it("the manifest holds the chain, the published keys and nothing secret", () => {
    const m = manifest();
    expect(m).toMatchObject({
      format: "keyledger-audit-manifest/1",
      organizationId: owner.organizationId,
      from: null,
      to: null,
      filters: {},
    });
    expect(m.digests.map((d) => d.sequence)).toEqual([1, 2, 3]);
    expect(m.newestDigest).toMatchObject({ sequence: 3 });
    expect(m.keys).toEqual(configuredKeys().map(publishedKey));
    expect(manifestText).not.toContain("PRIVATE KEY");
  });

  it("an untouched export is intact", async () => {
    const result = await run(exportText, manifestText);
    expect(result.stdout).toContain(`Checked 8 event(s) against 3 digest(s) (1 to 3) of organization ${owner.organizationId}.`);
    expect(result.stdout.trim().split("\n").at(-1)).toBe("intact");
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
  });

  it("without --keys it trusts the manifest's keys and says to compare their ids", async () => {
    const result = await run(exportText, manifestText, []);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`trusting the digests file's own keys (${currentSigningKey()!.id})`);
  });

  it("an edited detail is named as an altered event", async () => {
    const event = eventOf(lines[2]!);
    const edited = lines.map((line, i) => (i === 2 ? JSON.stringify({ ...event, details: { ...event.details, extra: 1 } }) : line));
    const result = await run(edited.join("\n") + "\n", manifestText);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(new RegExp(`^ALTERED EVENT: ${event.id} \\(.*\\) is not what digest \\d sealed\\.$`, "m"));
    expect(result.stdout).toContain("NOT INTACT: 1 finding(s).");
  });

  it("a changed actor id is named as an altered event", async () => {
    const event = eventOf(lines[4]!);
    const edited = lines.map((line, i) => (i === 4 ? JSON.stringify({ ...event, actorId: "someone-else" }) : line));
    const result = await run(edited.join("\n") + "\n", manifestText);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`ALTERED EVENT: ${event.id}`);
    expect(result.stdout).toContain("NOT INTACT: 1 finding(s).");
  });

  it("a deleted line is named as an event missing from the file", async () => {
    const oldest = eventOf(lines.at(-1)!);
    const result = await run(lines.slice(0, -1).join("\n") + "\n", manifestText);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      new RegExp(`^MISSING EVENT: ${oldest.id} \\(created .*\\), sealed in digest 1, is not in the file\\.$`, "m"),
    );
    expect(result.stdout).toContain("NOT INTACT: 1 finding(s).");
  });

  it("a line given twice is named", async () => {
    const result = await run([...lines, lines[1]!].join("\n") + "\n", manifestText);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`DUPLICATED EVENT: ${eventOf(lines[1]!).id}`);
    expect(result.stdout).toContain("NOT INTACT: 1 finding(s).");
  });

  it("a forged line is named as an inserted event", async () => {
    const forged = { ...eventOf(lines[3]!), id: uuidv7(), createdAt: new Date(Date.now() - 3 * 3600_000).toISOString() };
    const result = await run([...lines, JSON.stringify(forged)].join("\n") + "\n", manifestText);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`INSERTED EVENT: ${forged.id} (api_key.issued, ${forged.createdAt}) is in no digest`);
    expect(result.stdout).toContain("NOT INTACT: 1 finding(s).");
  });

  it("an edited digest document is named as a bad signature (and the next digest's link as broken)", async () => {
    const m = manifest();
    m.digests[1]!.document = m.digests[1]!.document.replace(/"periodEnd":"[^"]+"/, '"periodEnd":"2000-01-01T00:00:00.000Z"');
    const result = await run(exportText, m);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("BAD SIGNATURE: digest 2's signature does not hold for its document");
    expect(result.stdout).toContain("CHAIN BROKEN: digest 3 does not continue digest 2");
    expect(result.stdout).toContain("NOT INTACT: 2 finding(s).");
  });

  it("two swapped digests are named", async () => {
    const m = manifest();
    const [second, third] = [m.digests[1]!, m.digests[2]!];
    m.digests[1] = { ...third, sequence: 2 };
    m.digests[2] = { ...second, sequence: 3 };
    const result = await run(exportText, m);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("SWAPPED DIGEST: the digest listed as 2 holds the signed document of digest 3.");
    expect(result.stdout).toContain("SWAPPED DIGEST: the digest listed as 3 holds the signed document of digest 2.");
  });

  it("a digest re-signed with another key is named: unknown key with --keys", async () => {
    const m = manifest();
    const forger = generateKeyPairSync("ed25519");
    const forgerId = signingKeyId(forger.publicKey);
    const document = m.digests[2]!.document.replace(/"keyId":"[0-9a-f]+"/, `"keyId":"${forgerId}"`);
    m.digests[2] = { ...m.digests[2]!, document, signature: sign(null, Buffer.from(document), forger.privateKey).toString("base64") };
    m.keys = [{ id: forgerId, alg: "Ed25519", publicKey: forger.publicKey.export({ type: "spki", format: "pem" }) }];
    const result = await run(exportText, m);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`UNKNOWN KEY: digest 3 is signed with key ${forgerId}, which is not among the trusted keys.`);
    expect(result.stdout).toContain("NOT INTACT: 1 finding(s).");
    // Without --keys the forger's own key (in the manifest) is trusted: the warning names its id.
    const trusting = await run(exportText, m, []);
    expect(trusting.stderr).toContain(`own keys (${forgerId})`);
  });

  it("a digest signed with a key a rotation had already replaced is named (a leaked retired key)", async () => {
    const leaked = currentSigningKey()!;
    const [rotated, unused] = [freshKey(), freshKey()];
    const published = (key: SigningKey, status: "current" | "retired") => publishedKey({ id: key.id, key: key.publicKey, status });
    const keysFile = write(
      `rotated-keys-${randomUUID()}.json`,
      JSON.stringify({ keys: [published(rotated, "current"), published(leaked, "retired"), published(unused, "retired")] }),
    );
    /** The manifest's chain signed again digest by digest with these keys, each linked to the one before. */
    const signedWith = (keys: SigningKey[]) => {
      const m = manifest();
      let previousText: string | null = null;
      keys.forEach((key, index) => {
        const document = { ...(JSON.parse(m.digests[index]!.document) as DigestDocument), keyId: key.id };
        if (previousText !== null) document.previousDigestSha256 = digestSha256(previousText);
        const text = documentText(document);
        m.digests[index] = { ...m.digests[index]!, document: text, signature: signText(key, text).toString("base64") };
        previousText = text;
      });
      return m;
    };
    // The retired key signs again after the rotation; a retired key this log never used signs after the current one.
    for (const keys of [
      [leaked, rotated, leaked],
      [rotated, rotated, unused],
    ]) {
      const result = await run(exportText, signedWith(keys), ["--keys", keysFile]);
      expect(result.code).toBe(1);
      expect(result.stdout).toContain(
        `REPLACED KEY: digest 3 is signed with key ${keys[2]!.id}, which earlier digests had already been rotated away from (a retired key signing again).`,
      );
      expect(result.stdout).toContain("NOT INTACT: 1 finding(s).");
    }
  });

  it("a digest signed by the right key id with another key is a bad signature", async () => {
    const m = manifest();
    const forger = generateKeyPairSync("ed25519");
    m.digests[2]!.signature = sign(null, Buffer.from(m.digests[2]!.document), forger.privateKey).toString("base64");
    const result = await run(exportText, m);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("BAD SIGNATURE: digest 3's signature");
  });

  it("a digest dropped from the manifest is named as missing, and its events are not called inserted", async () => {
    const m = manifest();
    m.digests.splice(1, 1);
    const result = await run(exportText, m);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("MISSING DIGEST: digest 2 is not in the manifest (between 1 and 3)");
    expect(result.stdout).toContain("UNCHECKED EVENTS: 3 event(s) of the file are in no digest the manifest holds");
    expect(result.stdout).not.toContain("INSERTED EVENT");
    const newestDropped = manifest();
    newestDropped.digests.pop();
    expect((await run(exportText, newestDropped)).stdout).toContain(
      "MISSING DIGEST: digest 3 is not in the manifest (after digest 2, the newest being 3)",
    );
  });

  it("a manifest without digests checks nothing, and says so", async () => {
    const m = { ...manifest(), digests: [], newestDigest: null };
    const result = await run(exportText, m);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("NOTHING CHECKED: none of the file's 8 event(s) is in a digest of the manifest");
  });

  it("altered entries are named", async () => {
    const m = manifest();
    const entries = Buffer.from(m.digests[0]!.entries, "base64");
    entries[30] = entries[30]! ^ 1;
    m.digests[0]!.entries = entries.toString("base64");
    const result = await run(exportText, m);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("ENTRIES ALTERED: digest 1's entries are not the ones its document seals");
  });

  it("bad arguments and files that are not an export or a manifest answer exit 2", async () => {
    expect((await verifier([])).code).toBe(2);
    expect((await verifier(["--export", write("e.ndjson", exportText)])).stderr).toContain("--export and --digests are required.");
    const notManifest = await run(exportText, "{}");
    expect(notManifest).toMatchObject({ code: 2, stdout: "" });
    expect(notManifest.stderr).toContain("is not a keyledger-audit-manifest/1 manifest.");
    const csv = await run("id,createdAt,action,actorKind,actorId,actorName,targetType,targetId,targetName,details\r\n", manifestText);
    expect(csv.code).toBe(2);
    expect(csv.stderr).toContain("The export is CSV: only the NDJSON export (format=json) can be checked.");
    const missing = await verifier(["--export", join(dir, "nothing.ndjson"), "--digests", write("m.json", manifestText)]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("Cannot read the export");
  });

  it("events not yet sealed are not failures; sealed later, the export's own event is not missing from the file", async () => {
    await insertEvents(owner.organizationId, [{ hoursAgo: 0 }]);
    const exported = await get(owner, exportPath(owner.organizationId, "format=json"));
    const before = await get(owner, digestsPath(owner.organizationId));
    const unsealed = await run(exported.text, before.text);
    expect(unsealed.code).toBe(0);
    // The new event and the first export's own audit.exported event.
    expect(unsealed.stdout).toContain("Note: 2 event(s) of the file were not yet sealed when the digests were downloaded");
    await sealOrganization(owner.organizationId, currentSigningKey()!);
    const after = await get(owner, digestsPath(owner.organizationId));
    const sealed = await run(exported.text, after.text);
    expect(sealed.stdout).toContain("sealed event(s) created after the file's newest event are not in it");
    expect(sealed.stdout.trim().split("\n").at(-1)).toBe("intact");
    expect(sealed.code).toBe(0);
  });
});

describe("a range bigger than one digest", () => {
  it("streams 60,000 events' digests (two, the first full) and the verifier finds them intact", async () => {
    const owner = await memberOf();
    await pool().query(
      `INSERT INTO audit_events (id, organization_id, created_at, action, actor_kind, actor_id, target_type, target_id, details, content_hash)
       SELECT gen_random_uuid(), $1, now() - interval '1 day' + n * interval '1 ms', 'api_key.issued', 'user', 'u' || (n % 7), 'api_key',
              'k' || n, jsonb_build_object('n', n, 'name', 'key ' || n, 'scopes', jsonb_build_array('a', 'b')), 'test'
       FROM generate_series(1, 60000) n`,
      [owner.organizationId],
    );
    expect(await sealOrganization(owner.organizationId, currentSigningKey()!)).toEqual({ digests: 2, events: 60_000 });
    const exported = await get(owner, exportPath(owner.organizationId, "format=json"));
    const digests = await get(owner, digestsPath(owner.organizationId));
    const manifest = JSON.parse(digests.text) as Manifest;
    expect(manifest.digests.map((d) => Buffer.from(d.entries, "base64").length / 56)).toEqual([50_000, 10_000]);
    const result = await verifier(["--export", write("big.ndjson", exported.text), "--digests", write("big.json", digests.text)]);
    expect(result.stdout).toContain("Checked 60000 event(s) against 2 digest(s) (1 to 2)");
    expect(result.stdout.trim().split("\n").at(-1)).toBe("intact");
    expect(result.code).toBe(0);
  });
});

describe("the digests download's gate", () => {
  it("refuses as the export does: signed out, a member, a plan without export, another organization, an unknown one", async () => {
    const owner = await memberOf();
    expect((await get(null, digestsPath(owner.organizationId))).status).toBe(401);
    const member = await memberOf({ role: "member", organizationId: owner.organizationId });
    const refused = await get(member, digestsPath(owner.organizationId));
    expect(refused.status).toBe(403);
    const team = await memberOf({ plan: "team" });
    for (const lng of ["en", "de"]) {
      const digests = await get(team, digestsPath(team.organizationId), { "Accept-Language": lng });
      const exported = await get(team, exportPath(team.organizationId), { "Accept-Language": lng });
      expect(digests.status).toBe(403);
      expect(JSON.parse(digests.text)).toEqual(JSON.parse(exported.text));
    }
    expect(JSON.parse((await get(team, digestsPath(team.organizationId), { "Accept-Language": "de" })).text).message).toBe(
      "Der Tarif Ihrer Organisation enthält keinen Export des Audit-Logs.",
    );
    const stranger = await memberOf();
    expect((await get(stranger, digestsPath(owner.organizationId))).status).toBe(403);
    expect((await get(owner, digestsPath(randomUUID()))).status).toBe(404);
    expect((await get(owner, digestsPath("not-a-uuid"))).status).toBe(404);
    const post = await fetch(server.origin + digestsPath(owner.organizationId), { method: "POST", headers: { cookie: owner.cookie } });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET");
  });

  it("billing in a blocking state is 409, and a browser gets the refusal as a page", async () => {
    const owner = await memberOf();
    await prisma.organization.update({ where: { id: owner.organizationId }, data: { billingState: "past_due_blocked" } });
    const blocked = await get(owner, digestsPath(owner.organizationId), { "Accept-Language": "de" });
    expect(blocked.status).toBe(409);
    expect(JSON.parse(blocked.text)).toEqual(
      JSON.parse((await get(owner, exportPath(owner.organizationId), { "Accept-Language": "de" })).text),
    );
    const page = await get(owner, digestsPath(owner.organizationId), { Accept: "text/html" });
    expect(page.status).toBe(409);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    expect(page.text).toContain("Audit log export is paused while the organization&#x27;s billing needs attention.");
    // The page names the download that was refused, not the export.
    expect(page.text).toContain("The digests could not be downloaded");
    expect(page.text).not.toContain("The export could not start");
    const german = await get(owner, digestsPath(owner.organizationId), { Accept: "text/html", "Accept-Language": "de" });
    expect(german.text).toContain("Die Digests konnten nicht heruntergeladen werden");
  });

  it("counts against the export's rate limits: the sixth download in a minute is 429", async () => {
    const owner = await memberOf();
    for (let i = 0; i < 3; i++) expect((await get(owner, exportPath(owner.organizationId))).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await get(owner, digestsPath(owner.organizationId))).status).toBe(200);
    const refused = await get(owner, digestsPath(owner.organizationId), { "Accept-Language": "de" });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(JSON.parse(refused.text)).toMatchObject({ code: "TOO_MANY_REQUESTS" });
  });

  it("answers bad dates 400 with a translated message", async () => {
    const owner = await memberOf();
    const range = await get(owner, digestsPath(owner.organizationId, "from=2026-02-01&to=2026-01-01"), { "Accept-Language": "de" });
    expect(range.status).toBe(400);
    expect(JSON.parse(range.text).message).toBe("Das Anfangsdatum darf nicht nach dem Enddatum liegen.");
    const day = await get(owner, digestsPath(owner.organizationId, "from=2026-02-31"));
    expect(day.status).toBe(400);
    expect(JSON.parse(day.text).message).toBe("Dates must be real calendar dates in the form YYYY-MM-DD.");
    expect((await get(owner, digestsPath(owner.organizationId, "to=1999-12-31"))).status).toBe(400);
  });

  it("an empty range is a valid manifest with no digests", async () => {
    const owner = await memberOf();
    await insertEvents(owner.organizationId, [{ hoursAgo: 30 * 24 }]);
    await sealOrganization(owner.organizationId, currentSigningKey()!);
    const answer = await get(owner, digestsPath(owner.organizationId, "from=2001-01-01&to=2001-01-31"));
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toMatchObject({
      from: "2001-01-01",
      to: "2001-01-31",
      filters: { from: "2001-01-01", to: "2001-01-31" },
      digests: [],
    });
    expect(answer.headers.get("content-disposition")).toContain("audit-digests-org-");
  });

  it("holds the digests with an event of the range, and those between them", async () => {
    const owner = await memberOf();
    const day = (n: number) => new Date(Date.UTC(2026, 0, n, 12)).toISOString();
    const insertAt = (at: string) =>
      pool().query(
        `INSERT INTO audit_events (id, organization_id, created_at, action, actor_kind, actor_id, target_type, target_id, details, content_hash)
         VALUES ($1, $2, $3, 'api_key.issued', 'user', 'u', 'api_key', 'k', '{}', 'test')`,
        [uuidv7(), owner.organizationId, at],
      );
    // Digests 1 (Jan 1), 2 (Jan 2), 3 (Jan 3), 4 (Jan 4 and, late, one of Jan 2: a long transaction).
    for (const n of [1, 2, 3]) {
      await insertAt(day(n));
      await sealOrganization(owner.organizationId, currentSigningKey()!);
    }
    await insertAt(day(4));
    await insertAt(day(2));
    await sealOrganization(owner.organizationId, currentSigningKey()!);
    const sequences = async (query: string) => {
      await pool().query("DELETE FROM rate_limits"); // more downloads than a minute allows
      return (JSON.parse((await get(owner, digestsPath(owner.organizationId, query))).text) as Manifest).digests.map((d) => d.sequence);
    };
    expect(await sequences("")).toEqual([1, 2, 3, 4]);
    expect(await sequences("from=2026-01-01&to=2026-01-01")).toEqual([1]);
    expect(await sequences("from=2026-01-02&to=2026-01-02")).toEqual([2, 3, 4]);
    expect(await sequences("from=2026-01-03&to=2026-01-03")).toEqual([3]);
    expect(await sequences("to=2026-01-01")).toEqual([1]);
    expect(await sequences("from=2026-01-03")).toEqual([3, 4]);
  });
});

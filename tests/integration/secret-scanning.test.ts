// GitHub's secret scanning partner reports on real PostgreSQL and a real SMTP server
// (docs/decisions/0060-secret-scanning-reports.md): signed with a P-256 key made here, checked over
// the exact bytes; junk and bad checksums answered without a query; our keys (active, revoked,
// legacy with and without their lookup row, whatever `type` GitHub gave them) marked reported
// leaked in their own organization only; owners and admins mailed once per leaked secret, members
// never, a replayed or re-signed report mailing nobody; every refusal writing nothing.
import { randomUUID } from "node:crypto";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { startMailServer } from "../smtp";

// Before anything reads the configuration.
const mail = await startMailServer();
process.env.SMTP_URL = mail.url;
process.env.APP_ORIGIN = "https://keys.example.com";

const { generateSecret } = await import("~/api-keys/secret.server");
const { authorizeOrganization } = await import("~/access/organization-access.server");
const { listUnrevokedKeys } = await import("~/api-keys/api-keys.server");
const { parseEnv } = await import("~/env.server");
const { pool, prisma } = await import("~/db.server");
const { runDueJobs } = await import("~/jobs/queue.server");
const { receiveScanningReport } = await import("~/secret-scanning/receive-report.server");
const { secretScanningTasks } = await import("~/secret-scanning/tasks.server");
const { createOrganizationWith, createUser, signedIn } = await import("../factories");
const { issueKey, listKeys, revokeKey, rotateKey } = await import("../domain-calls");
const { insertLegacyKey, legacySecret } = await import("../legacy-secrets");
const { reportBody, scannerKeys, signedHeaders } = await import("../secret-scanning");

const github = scannerKeys("github-key-1");
const configured = parseEnv({ DATABASE_URL: "postgres://x/y", SECRET_SCANNING_PUBLIC_KEYS: github.configured }).SECRET_SCANNING_PUBLIC_KEYS;

afterEach(() => vi.restoreAllMocks());
afterAll(() => mail.stop());

/** Posts `body` signed by GitHub's key (or with the given headers) to the domain function the route calls. */
function post(body: string | Buffer, headers: Record<string, string> = signedHeaders(github, body)) {
  return receiveScanningReport(new Headers(headers), typeof body === "string" ? Buffer.from(body) : body, configured);
}

async function organizationWithKey() {
  const [owner, admin, member] = [await createUser(), await createUser(), await createUser()];
  const organization = await createOrganizationWith([
    { userId: owner.id, role: "owner" },
    { userId: admin.id, role: "admin" },
    { userId: member.id, role: "member" },
  ]);
  const { auth } = await signedIn(owner.id, organization.id);
  const issued = await issueKey(auth, organization.id, { name: `ci-${randomUUID().slice(0, 6)}`, scopes: ["audit:view"] });
  return { organization, owner, admin, member, auth, key: issued.key, secret: issued.secret };
}

const reportsOf = (organizationId: string) =>
  prisma.apiKeyLeakReport.findMany({
    where: { organizationId },
    select: { apiKeyId: true, source: true, url: true, tokenType: true, reportCount: true },
  });
const leakEvents = (organizationId: string) =>
  prisma.auditEvent.findMany({
    where: { organizationId, action: "api_key.reported_leaked" },
    select: { actorKind: true, actorId: true, targetId: true, details: true },
  });
const mailsTo = (address: string) =>
  mail.messages.filter((m) => [m.to ?? []].flat().some((to) => to.value.some((v) => v.address === address)));

describe("a report of our keys", () => {
  it("labels each token, marks the key reported leaked and mails its owners and admins once, members never", async () => {
    const { organization, owner, admin, member, auth, key, secret } = await organizationWithKey();
    const body = reportBody([
      { token: "sk_not_a_key" },
      { token: secret, url: "https://github.com/acme/app/blob/abc/.env", source: "commit" },
      { token: secret, url: "https://github.com/acme/other/issues/1", source: "issue_comment" },
    ]);
    const outcome = await post(body);
    expect(outcome).toEqual({
      ok: true,
      newlyReported: 1,
      answers: [
        { token_raw: "sk_not_a_key", token_type: "keyledger_api_key", label: "false_positive" },
        { token_raw: secret, token_type: "keyledger_api_key", label: "true_positive" },
        { token_raw: secret, token_type: "keyledger_api_key", label: "true_positive" },
      ],
    });
    // Where it was found first; the key stays active (not revoked automatically).
    expect(await reportsOf(organization.id)).toEqual([
      {
        apiKeyId: key.id,
        source: "commit",
        url: "https://github.com/acme/app/blob/abc/.env",
        tokenType: "keyledger_api_key",
        reportCount: 1,
      },
    ]);
    expect(await leakEvents(organization.id)).toEqual([
      {
        actorKind: "system",
        actorId: "github-secret-scanning",
        targetId: key.id,
        details: { name: key.name, prefix: key.prefix, source: "commit", url: "https://github.com/acme/app/blob/abc/.env" },
      },
    ]);
    const [listed] = await listUnrevokedKeys(await authorizeOrganization(auth, organization.id, "apiKey:manage"));
    expect(listed).toMatchObject({
      id: key.id,
      state: "active",
      reportedLeak: { source: "commit", url: "https://github.com/acme/app/blob/abc/.env", count: 1 },
    });

    // The admin last used KeyLedger in German; the owner has no language stored yet (both languages).
    await prisma.user.update({ where: { id: admin.id }, data: { language: "de" } });
    await runDueJobs(secretScanningTasks);
    const [ownerMail] = await mail.waitFor(owner.email);
    const [adminMail] = await mail.waitFor(admin.email);
    expect(await mail.waitFor(admin.email)).toHaveLength(1);
    expect(adminMail!.text).toContain("Rotieren Sie den Schlüssel");
    expect(adminMail!.text).not.toContain("Rotate the key");
    expect(mailsTo(member.email)).toHaveLength(0);
    expect(ownerMail!.subject).toContain(key.name);
    for (const text of [
      key.name,
      `${key.prefix}…`,
      "https://github.com/acme/app/blob/abc/.env (commit)",
      "Rotate the key",
      "Rotieren Sie den Schlüssel",
    ]) {
      expect(ownerMail!.text).toContain(text);
    }
    // The key's own organization, whichever one the person has active when they follow it.
    expect(ownerMail!.text).toContain(`https://keys.example.com/dashboard/organizations/${organization.id}/api-keys?q=${key.prefix}`);
    expect(ownerMail!.text).not.toContain(secret);

    // The same report again, and the same payload signed anew (ECDSA signatures differ each time):
    // counted, nobody mailed, nothing recorded again.
    expect(await post(body)).toMatchObject({ ok: true, newlyReported: 0 });
    const resigned = signedHeaders(github, body);
    expect(resigned["Github-Public-Key-Signature"]).not.toBe(signedHeaders(github, body)["Github-Public-Key-Signature"]);
    expect(await post(body, resigned)).toMatchObject({ ok: true, newlyReported: 0 });
    await runDueJobs(secretScanningTasks);
    expect(mailsTo(owner.email)).toHaveLength(1);
    expect(mailsTo(admin.email)).toHaveLength(1);
    expect((await reportsOf(organization.id))[0]!.reportCount).toBe(3);
    expect(await leakEvents(organization.id)).toHaveLength(1);
  });

  it("two deliveries of one report at the same moment tell people once", async () => {
    const { organization, owner, secret } = await organizationWithKey();
    const body = reportBody([{ token: secret }]);
    const outcomes = await Promise.all([post(body), post(body), post(body, signedHeaders(github, body))]);
    expect(outcomes.map((o) => o.ok && o.newlyReported).sort()).toEqual([0, 0, 1]);
    expect((await reportsOf(organization.id))[0]!.reportCount).toBe(3);
    expect(await leakEvents(organization.id)).toHaveLength(1);
    await runDueJobs(secretScanningTasks);
    expect(await mail.waitFor(owner.email)).toHaveLength(1);
  });

  it("forgets the report once the key is rotated, and reports the new secret's leak anew", async () => {
    const { organization, owner, auth, key, secret } = await organizationWithKey();
    await post(reportBody([{ token: secret }]));
    await runDueJobs(secretScanningTasks);
    expect(await mail.waitFor(owner.email)).toHaveLength(1);
    const rotated = await rotateKey(auth, organization.id, key.id);
    const manager = await authorizeOrganization(auth, organization.id, "apiKey:manage");
    expect((await listUnrevokedKeys(manager))[0]!.reportedLeak).toBeNull();
    // The old secret is no key's any more (only the current secret's hash is kept): not ours, no report.
    expect(await post(reportBody([{ token: secret }]))).toMatchObject({
      ok: true,
      newlyReported: 0,
      answers: [{ label: "false_positive" }],
    });
    expect(await post(reportBody([{ token: rotated.secret, source: "gist" }]))).toMatchObject({ ok: true, newlyReported: 1 });
    expect((await listUnrevokedKeys(manager))[0]!.reportedLeak).toMatchObject({ source: "gist", count: 1 });
    await runDueJobs(secretScanningTasks);
    expect(await mail.waitFor(owner.email, 2)).toHaveLength(2);
  });

  it("mails nobody when the key is rotated between the report and the mail", async () => {
    const { organization, owner, admin, auth, key, secret } = await organizationWithKey();
    expect(await post(reportBody([{ token: secret }]))).toMatchObject({ ok: true, newlyReported: 1 });
    // Rotated before the queued mails go out: the leaked secret already fails, and the key's prefix
    // is now the new secret's, which did not leak.
    await rotateKey(auth, organization.id, key.id);
    await runDueJobs(secretScanningTasks);
    expect(mailsTo(owner.email)).toHaveLength(0);
    expect(mailsTo(admin.email)).toHaveLength(0);
  });

  it("answers true_positive for a revoked key, shows it on the revoked key, and mails nobody", async () => {
    const { organization, owner, admin, auth, key, secret } = await organizationWithKey();
    await revokeKey(auth, organization.id, key.id);
    expect(await post(reportBody([{ token: secret }]))).toMatchObject({
      ok: true,
      newlyReported: 1,
      answers: [{ label: "true_positive" }],
    });
    expect(await reportsOf(organization.id)).toHaveLength(1);
    expect(await leakEvents(organization.id)).toHaveLength(1);
    // apiKey.list's revoked keys carry it, as its keys in use do.
    expect(await listKeys(auth, organization.id)).toEqual([
      expect.objectContaining({ id: key.id, state: "revoked", reportedLeak: expect.objectContaining({ source: "content", count: 1 }) }),
    ]);
    await runDueJobs(secretScanningTasks);
    expect(mailsTo(owner.email)).toHaveLength(0);
    expect(mailsTo(admin.email)).toHaveLength(0);
  });

  it("checks the token whatever type GitHub names, and finds secrets of the older format with and without their lookup row", async () => {
    const { organization, secret } = await organizationWithKey();
    const [migrated, unrouted] = [legacySecret(), legacySecret()];
    await insertLegacyKey(pool(), { organizationId: organization.id, secret: migrated });
    await pool().query("INSERT INTO api_key_legacy_secrets (secret_hash, organization_id) VALUES ($1, $2)", [
      migrated.hash,
      organization.id,
    ]);
    await insertLegacyKey(pool(), { organizationId: organization.id, secret: unrouted });
    const outcome = await post(
      reportBody([
        { token: secret, type: "some_future_type" },
        { token: migrated.secret },
        { token: unrouted.secret },
        { token: legacySecret().secret },
      ]),
    );
    expect(outcome).toMatchObject({
      ok: true,
      newlyReported: 3,
      answers: [
        { token_type: "some_future_type", label: "true_positive" },
        { label: "true_positive" },
        { label: "true_positive" },
        { label: "false_positive" },
      ],
    });
    expect(await reportsOf(organization.id)).toHaveLength(3);
  });

  it("marks the key in its own organization only", async () => {
    const a = await organizationWithKey();
    const b = await organizationWithKey();
    const outcome = await post(reportBody([{ token: a.secret }, { token: generateSecret(b.organization.id).secret }]));
    expect(outcome).toMatchObject({ ok: true, answers: [{ label: "true_positive" }, { label: "false_positive" }] });
    expect(await reportsOf(a.organization.id)).toHaveLength(1);
    expect(await reportsOf(b.organization.id)).toHaveLength(0);
    expect(await leakEvents(b.organization.id)).toHaveLength(0);
  });
});

describe("tokens that are not ours", () => {
  it("rejects junk and bad checksums without a query, and unknown well-formed secrets after one", async () => {
    const { secret } = await organizationWithKey();
    const badChecksum = secret.slice(0, -1) + (secret.endsWith("0") ? "1" : "0");
    const junk = ["", "sk_", "ghp_0123456789", "sk_" + "A".repeat(73), badChecksum, "\u0000sk_x", "x".repeat(5000)];
    const queries = vi.spyOn(pool(), "query");
    // Prisma's statements go through the same pool: a connection taken would be a statement sent.
    const connections = vi.spyOn(pool(), "connect");
    const outcome = await post(reportBody(junk.map((token) => ({ token }))));
    expect(outcome).toMatchObject({ ok: true, newlyReported: 0 });
    expect(outcome.ok && outcome.answers.map((a) => a.label)).toEqual(junk.map(() => "false_positive"));
    expect(queries).not.toHaveBeenCalled();
    expect(connections).not.toHaveBeenCalled();

    const unknown = await post(reportBody([{ token: generateSecret(randomUUID()).secret }, { token: legacySecret().secret }]));
    expect(unknown).toMatchObject({ ok: true, newlyReported: 0, answers: [{ label: "false_positive" }, { label: "false_positive" }] });
    // The lookup table, the transition's fallback, the keys: three reads (each takes its own connection), no transaction.
    expect(queries).toHaveBeenCalledTimes(3);
    expect(connections).toHaveBeenCalledTimes(3);
  });
});

describe("refusals, each writing nothing", () => {
  const nothingWritten = async (organizationId: string) => {
    expect(await reportsOf(organizationId)).toHaveLength(0);
    expect(await leakEvents(organizationId)).toHaveLength(0);
  };

  it("401 for a report without signature headers, with an unknown key id, or a signature over other bytes", async () => {
    const { organization, secret } = await organizationWithKey();
    const body = reportBody([{ token: secret }]);
    const signed = signedHeaders(github, body);
    const stranger = scannerKeys("github-key-2");
    const cases: [Record<string, string>, string][] = [
      [{ "Content-Type": "application/json" }, "secretScanning.unsigned"],
      [{ ...signed, "Github-Public-Key-Signature": "" }, "secretScanning.unsigned"],
      [signedHeaders(stranger, body), "secretScanning.unknownKey"],
      [{ ...signedHeaders(stranger, body), "Github-Public-Key-Identifier": github.id }, "secretScanning.badSignature"],
      [signedHeaders(github, reportBody([{ token: secret, url: "https://elsewhere" }])), "secretScanning.badSignature"],
      [{ ...signed, "Github-Public-Key-Signature": "not base64!" }, "secretScanning.badSignature"],
      [{ ...signed, "Github-Public-Key-Signature": Buffer.from("not DER").toString("base64") }, "secretScanning.badSignature"],
    ];
    for (const [headers, messageKey] of cases) {
      expect(await post(body, headers), messageKey).toMatchObject({ ok: false, status: 401, messageKey });
    }
    // Signed bytes, then changed: one byte is enough.
    const tampered = Buffer.from(body);
    tampered[tampered.length - 3]! ^= 1;
    expect(await post(tampered, signed)).toMatchObject({ ok: false, status: 401 });
    await nothingWritten(organization.id);
  });

  it("413 for more than 1,000 tokens or more than 1 MiB, 400 for what is not JSON or not a list of matches", async () => {
    const { organization, secret } = await organizationWithKey();
    const many = reportBody([{ token: secret }, ...Array.from({ length: 10_000 }, () => ({ token: "x", url: "" }))]);
    expect(Buffer.byteLength(many)).toBeLessThan(1024 * 1024);
    expect(await post(many)).toMatchObject({ ok: false, status: 413, messageKey: "secretScanning.tooLarge" });
    const huge = reportBody([{ token: secret, url: `https://github.com/${"a".repeat(10 * 1024 * 1024)}` }]);
    expect(await post(huge)).toMatchObject({ ok: false, status: 413 });
    for (const bad of ["{", "", '{"token":"x"}', "[1]", '[{"type":"t"}]', '[{"token":1,"type":"t"}]', "null"]) {
      expect(await post(bad), bad).toMatchObject({ ok: false, status: 400 });
    }
    await nothingWritten(organization.id);
  });

  it("keeps a report whose strings PostgreSQL cannot store (NUL, a lone surrogate) instead of failing the whole payload", async () => {
    const { organization, secret } = await organizationWithKey();
    const body = reportBody([{ token: secret, type: "key\u0000ledger", url: "https://github.com/a/b\u0000c", source: "com\ud800mit" }]);
    expect(await post(body)).toMatchObject({ ok: true, newlyReported: 1, answers: [{ label: "true_positive" }] });
    const [report] = await reportsOf(organization.id);
    // NUL and other control characters dropped; a lone surrogate kept as U+FFFD.
    expect(report).toMatchObject({ url: "https://github.com/a/bc", tokenType: "keyledger", source: "com\ufffdmit" });
    const [event] = await leakEvents(organization.id);
    expect(event!.details).toMatchObject({ url: "https://github.com/a/bc", source: "com\ufffdmit" });
  });

  it("404 when no public keys are configured", async () => {
    const body = reportBody([{ token: "sk_x" }]);
    expect(await receiveScanningReport(new Headers(signedHeaders(github, body)), Buffer.from(body), undefined)).toMatchObject({
      ok: false,
      status: 404,
      messageKey: "secretScanning.notConfigured",
    });
  });
});

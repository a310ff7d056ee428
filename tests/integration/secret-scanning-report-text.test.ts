// What is kept of the text GitHub sends with a match (its `type`, `source` and `url`): a report of
// one of our keys whose strings hold NUL, other control characters or a lone UTF-16 surrogate, or
// whose URL is cut at the stored length in the middle of a character, was a 500 (PostgreSQL refuses
// NUL in text and a broken surrogate pair in jsonb), and GitHub would have retried it forever while
// the key's owners heard nothing. Such a report is still a warning worth keeping: it is recorded
// with the unreadable characters left out, the audit event and the mail as for any other report.
import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { startMailServer } from "../smtp";

const mail = await startMailServer();
process.env.SMTP_URL = mail.url;

const { parseEnv } = await import("~/env.server");
const { prisma } = await import("~/db.server");
const { runDueJobs } = await import("~/jobs/queue.server");
const { receiveScanningReport } = await import("~/secret-scanning/receive-report.server");
const { STORED_LENGTH } = await import("~/secret-scanning/report-format");
const { secretScanningTasks } = await import("~/secret-scanning/tasks.server");
const { createOrganizationWith, createUser, signedIn } = await import("../factories");
const { issueKey } = await import("../domain-calls");
const { reportBody, scannerKeys, signedHeaders } = await import("../secret-scanning");

const github = scannerKeys("report-text-key");
const configured = parseEnv({ DATABASE_URL: "postgres://x/y", SECRET_SCANNING_PUBLIC_KEYS: github.configured }).SECRET_SCANNING_PUBLIC_KEYS;

afterAll(() => mail.stop());

const post = (body: string) => receiveScanningReport(new Headers(signedHeaders(github, body)), Buffer.from(body), configured);

async function leakedKey() {
  const owner = await createUser();
  const organization = await createOrganizationWith([{ userId: owner.id, role: "owner" }]);
  const { auth } = await signedIn(owner.id, organization.id);
  const { secret } = await issueKey(auth, organization.id, { name: `ci-${randomUUID().slice(0, 6)}`, scopes: ["audit:view"] });
  return { organizationId: organization.id, owner, secret };
}

async function storedReport(organizationId: string) {
  const report = await prisma.apiKeyLeakReport.findFirstOrThrow({
    where: { organizationId },
    select: { tokenType: true, source: true, url: true },
  });
  const event = await prisma.auditEvent.findFirstOrThrow({
    where: { organizationId, action: "api_key.reported_leaked" },
    select: { details: true },
  });
  return { report, details: event.details as Record<string, unknown> };
}

describe("a report whose text cannot be stored as it is", () => {
  it("keeps the report without NUL and other control characters, and answers with the type as GitHub sent it", async () => {
    const { organizationId, owner, secret } = await leakedKey();
    const type = "keyledger\u0000_api_key";
    const outcome = await post(
      reportBody([{ token: secret, type, source: "con\u0000tent\u001b[31m", url: "https://github.com/acme/app\u0000/blob/main/.env" }]),
    );
    expect(outcome).toMatchObject({
      ok: true,
      newlyReported: 1,
      answers: [{ token_raw: secret, token_type: type, label: "true_positive" }],
    });
    const { report, details } = await storedReport(organizationId);
    expect(report).toEqual({ tokenType: "keyledger_api_key", source: "content[31m", url: "https://github.com/acme/app/blob/main/.env" });
    expect(details).toMatchObject({ source: "content[31m", url: "https://github.com/acme/app/blob/main/.env" });
    await runDueJobs(secretScanningTasks);
    expect(await mail.waitFor(owner.email)).toHaveLength(1);
  });

  it("keeps a lone surrogate as U+FFFD, and never cuts a character in half at the stored length", async () => {
    const lone = await leakedKey();
    expect(await post(reportBody([{ token: lone.secret, url: "https://github.com/acme/\ud800app", source: "\udc00" }]))).toMatchObject({
      ok: true,
      newlyReported: 1,
    });
    expect((await storedReport(lone.organizationId)).report).toMatchObject({ url: "https://github.com/acme/\ufffdapp", source: "\ufffd" });

    const long = await leakedKey();
    // The emoji (two code units) would end one unit past the stored length: it is left out whole.
    const upToEmoji = `https://github.com/${"a".repeat(STORED_LENGTH.url - 20)}`;
    expect(upToEmoji).toHaveLength(STORED_LENGTH.url - 1);
    expect(await post(reportBody([{ token: long.secret, url: `${upToEmoji}😀 and more` }]))).toMatchObject({ ok: true, newlyReported: 1 });
    const { report, details } = await storedReport(long.organizationId);
    expect(report.url).toBe(upToEmoji);
    expect(details.url).toBe(report.url);
  });
});

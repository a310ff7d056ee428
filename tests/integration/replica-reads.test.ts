// Audit reads on a replica (DATABASE_READ_URL), against a real primary and a real hot standby
// streaming from it on this machine (scripts/lib/embedded-standby.ts). Which server answered is
// told two ways: by the data (a paused standby does not have the latest event) and by each server's
// own pg_stat_statements. Proves: reads go to a current standby; a person's own writes are read
// from the primary until the standby has replayed them (the read-your-writes cookie, through the
// real request edge too); a standby behind DATABASE_READ_MAX_LAG_SECONDS, stopped, or failing under
// a read is skipped, and the metrics say why; the export's snapshot runs on the standby.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/lib/free-port.ts";
import { queriesServed, startCountingPrimary, startEmbeddedStandby } from "../../scripts/lib/embedded-standby.ts";

// Before anything reads the configuration: this file's primary and standby, a 3-second lag bound.
const root = await mkdtemp(join(tmpdir(), "keyledger-replica-reads-"));
const primaryDataDir = join(root, "primary");
const primary = await startCountingPrimary(primaryDataDir, "keyledger");
const standby = await startEmbeddedStandby({
  primaryUrl: primary.url,
  primaryDataDir,
  dataDir: join(root, "standby"),
  port: await freePort(),
  database: "keyledger",
});
process.env.DATABASE_URL = primary.url;
process.env.DATABASE_READ_URL = standby.url;
process.env.DATABASE_READ_MAX_LAG_SECONDS = "3";

const { authorizeAuditExport, authorizeOrganization } = await import("~/access/organization-access.server");
const { parseAuditSearchParams } = await import("~/audit/audit-query");
const { listAuditEvents } = await import("~/audit/query.server");
const { exportAuditLog } = await import("~/audit/export/export-audit-log.server");
const { sessionCookieName } = await import("~/auth/cookies.server");
const { disconnectDb } = await import("~/db.server");
const { readYourWritesCookie } = await import("~/lib/read-routing.server");
const { forgetReplicaStatus, parseLsn, primaryPosition } = await import("~/lib/replica-status.server");
const { runWithCorrelationId } = await import("~/lib/request-scope.server");
const { enableMetrics, renderMetrics } = await import("~/metrics/registry.server");
const { createOrganizationWith, createUser, signedIn } = await import("../factories");
const { issueKey } = await import("../domain-calls");
const { ndjsonRows } = await import("../domain-calls");
const { startInProcessServer } = await import("../app-server");

let owner: { auth: Awaited<ReturnType<typeof signedIn>>["auth"]; token: string; organizationId: string };

/** The audit list's statement, as each server's pg_stat_statements records it: by the audit view's
 * named columns, since the /metrics scrape (routed()) reads audit_events on the primary too, for
 * the audit streams' lag. */
const AUDIT_LIST = /AS "targetDetail"[\s\S]*FROM audit_events/;

async function keyNamesInLog(readAfterLsn?: bigint): Promise<string[]> {
  const reader = await authorizeOrganization(owner.auth, owner.organizationId, "audit:view");
  const page = await runWithCorrelationId(
    "replica-test",
    () => listAuditEvents(reader, parseAuditSearchParams(new URLSearchParams("action=api_key.issued"))),
    readAfterLsn,
  );
  return page.events.map((event) => event.target.name ?? "").sort();
}

/** A check made now, with the standby caught up: the reads of the next seconds go by it (no new
 * check in front of them), so a standby paused after it still answers them. */
async function settle() {
  await standby.caughtUp();
  forgetReplicaStatus();
  await keyNamesInLog();
}

async function issue(name: string) {
  await issueKey(owner.auth, owner.organizationId, { name, scopes: ["audit:view"] });
}

/** keyledger_replica_reads_total{server,reason}, from the metrics exposition. */
async function routed(reason: string): Promise<number> {
  const { body } = await renderMetrics();
  const server = reason === "replica" ? "replica" : "primary";
  const line = body.split("\n").find((l) => l.startsWith(`keyledger_replica_reads_total{server="${server}",reason="${reason}"}`));
  return line ? Number(line.split(" ").at(-1)) : 0;
}

beforeAll(async () => {
  enableMetrics({});
  const user = await createUser();
  const organization = await createOrganizationWith([{ userId: user.id, role: "owner" }], { planId: "enterprise" });
  const { auth, token } = await signedIn(user.id, organization.id);
  owner = { auth, token, organizationId: organization.id };
  await issue("first");
  await standby.caughtUp();
}, 60_000);

beforeEach(() => forgetReplicaStatus());

afterAll(async () => {
  await disconnectDb();
  await standby.destroy();
  await primary.stop();
  await rm(root, { recursive: true, force: true });
}, 60_000);

describe("audit reads with DATABASE_READ_URL", () => {
  it("go to a standby that is current, not to the primary", async () => {
    const [onStandby, onPrimary] = [await queriesServed(standby.url, AUDIT_LIST), await queriesServed(primary.url, AUDIT_LIST)];
    const before = await routed("replica");
    expect(await keyNamesInLog()).toEqual(["first"]);
    expect(await queriesServed(standby.url, AUDIT_LIST)).toBeGreaterThan(onStandby);
    expect(await queriesServed(primary.url, AUDIT_LIST)).toBe(onPrimary);
    expect(await routed("replica")).toBe(before + 1);
  });

  it("read a person's own writes from the primary until the standby has replayed them", async () => {
    await settle();
    await standby.pauseReplay();
    try {
      await issue("while paused");
      const cookie = await readYourWritesCookie();
      expect(cookie).toMatch(/^read_after=[0-9A-F]+%2F[0-9A-F]+; Max-Age=3600; Path=\/; HttpOnly; SameSite=Lax$/);
      const position = parseLsn(decodeURIComponent(cookie!.split(";")[0]!.split("=")[1]!));
      expect(position).not.toBeNull();
      // Someone else (no cookie) is served by the paused standby: the new key is not there yet.
      expect(await keyNamesInLog()).toEqual(["first"]);
      const readYourWrites = await routed("read_your_writes");
      expect(await keyNamesInLog(position!)).toEqual(["first", "while paused"]);
      expect(await routed("read_your_writes")).toBe(readYourWrites + 1);
    } finally {
      await standby.resumeReplay();
    }
    await standby.caughtUp();
    forgetReplicaStatus();
    // Replayed: the same position is now served by the standby.
    const replica = await routed("replica");
    expect(await keyNamesInLog(parseLsn(await primaryPosition())!)).toEqual(["first", "while paused"]);
    expect(await routed("replica")).toBe(replica + 1);
  });

  it("skip a standby further behind than DATABASE_READ_MAX_LAG_SECONDS, and come back when it catches up", async () => {
    await settle();
    await standby.pauseReplay();
    try {
      await issue("behind");
      // Behind by less than the bound, so the standby still answers (without the key).
      expect(await keyNamesInLog()).not.toContain("behind");
      await new Promise((resolve) => setTimeout(resolve, 3_600));
      const lagging = await routed("lagging");
      expect(await keyNamesInLog()).toContain("behind");
      expect(await routed("lagging")).toBe(lagging + 1);
    } finally {
      await standby.resumeReplay();
    }
    await standby.caughtUp();
    // The check that finds it caught up runs beside the reads: within a few of them the standby answers again.
    const replica = await routed("replica");
    for (let tries = 0; tries < 40 && (await routed("replica")) === replica; tries++) {
      expect(await keyNamesInLog()).toContain("behind");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await routed("replica")).toBeGreaterThan(replica);
  });

  it("skip a standby found behind after a quiet spell, with nothing noted to measure by", async () => {
    await standby.pauseReplay();
    try {
      await issue("while quiet");
      // No reads for longer than the bound, then a process that has never checked (another instance,
      // or one that sat idle): the age of the last transaction the standby replayed says how far behind.
      await new Promise((resolve) => setTimeout(resolve, 3_600));
      forgetReplicaStatus();
      const lagging = await routed("lagging");
      expect(await keyNamesInLog()).toContain("while quiet");
      expect(await routed("lagging")).toBe(lagging + 1);
      // And the checks after it keep measuring from there: the standby stays skipped.
      await new Promise((resolve) => setTimeout(resolve, 1_200));
      expect(await keyNamesInLog()).toContain("while quiet");
      await new Promise((resolve) => setTimeout(resolve, 1_200));
      expect(await keyNamesInLog()).toContain("while quiet");
      expect(await routed("lagging")).toBe(lagging + 3);
    } finally {
      await standby.resumeReplay();
    }
    await standby.caughtUp();
  });

  it("run the export's snapshot on the standby", async () => {
    await settle();
    await standby.pauseReplay();
    try {
      await issue("not exported");
      const exporter = await authorizeAuditExport(owner.auth, owner.organizationId);
      const query = parseAuditSearchParams(new URLSearchParams("action=api_key.issued"));
      const file = await exportAuditLog(exporter, { format: "json", query });
      const names = ndjsonRows(await new Response(file.body).text()).map((row) => row.targetName);
      expect(names).not.toContain("not exported");
      expect(names).toContain("first");
    } finally {
      await standby.resumeReplay();
    }
    await standby.caughtUp();
  });

  it("go to the primary while the standby is down, also when it fails under a read, and back once it is up", async () => {
    expect(await keyNamesInLog()).toContain("first"); // a fresh check: up
    await standby.stop();
    try {
      // The check said up a moment ago: the read tries the standby, which is gone, and the primary answers.
      const failed = await routed("failed");
      expect(await keyNamesInLog()).toContain("first");
      expect(await routed("failed")).toBe(failed + 1);
      // Known down now: the next reads go straight to the primary.
      const down = await routed("down");
      expect(await keyNamesInLog()).toContain("first");
      expect(await routed("down")).toBe(down + 1);
      forgetReplicaStatus();
      await issue("while down");
      expect(await keyNamesInLog()).toContain("while down");
    } finally {
      await standby.start();
    }
    await standby.caughtUp();
    forgetReplicaStatus();
    const replica = await routed("replica");
    expect(await keyNamesInLog()).toContain("while down");
    expect(await routed("replica")).toBe(replica + 1);
  });

  it("keep a form post's writes visible on the next page through the request edge's cookie", async () => {
    const server = await startInProcessServer();
    try {
      await settle();
      await standby.pauseReplay();
      const session = `${sessionCookieName()}=${owner.token}`;
      const posted = await fetch(`${server.origin}/dashboard/organization-settings/api-keys`, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          cookie: session,
          origin: server.origin,
          "sec-fetch-site": "same-origin",
        },
        body: "intent=issue&name=posted-by-form&scopes=audit%3Aview",
        redirect: "manual",
      });
      expect(posted.status).toBe(200);
      const readAfter = posted.headers.getSetCookie().find((c) => c.startsWith("read_after="));
      expect(readAfter).toBeDefined();
      const page = (cookie: string) =>
        fetch(`${server.origin}/dashboard/organization-settings/audit-log?action=api_key.issued`, { headers: { cookie } }).then((r) =>
          r.text(),
        );
      expect(readAfter).toMatch(/; Max-Age=3600; Path=\/; HttpOnly; SameSite=Lax$/);
      expect(await page(`${session}; ${readAfter!.split(";")[0]}`)).toContain("posted-by-form");
      // Without the cookie the paused standby answers: proof that the cookie, not luck, chose the primary.
      expect(await page(session)).not.toContain("posted-by-form");
      // A page that only reads gets no cookie; a signed-in RPC call that changed something gets one,
      // one that only read does not (it asks the primary nothing).
      const readOnly = await fetch(`${server.origin}/dashboard/organization-settings/audit-log`, { headers: { cookie: session } });
      expect(readOnly.headers.getSetCookie().some((c) => c.startsWith("read_after="))).toBe(false);
      const rpc = (procedure: string, input: unknown) =>
        fetch(`${server.origin}/rpc/${procedure}`, {
          method: "POST",
          headers: { "content-type": "application/json", cookie: session, origin: server.origin, "sec-fetch-site": "same-origin" },
          body: JSON.stringify({ json: input }),
        });
      const issued = await rpc("apiKey/issue", { organizationId: owner.organizationId, name: "issued-by-rpc", scopes: ["audit:view"] });
      expect(issued.status).toBe(200);
      expect(issued.headers.getSetCookie().some((c) => c.startsWith("read_after="))).toBe(true);
      // An export is a GET that records `audit.exported`: it carries the cookie too.
      const exported = await fetch(`${server.origin}/api/organizations/${owner.organizationId}/audit-log/export?format=json`, {
        headers: { cookie: session },
      });
      expect(exported.status).toBe(200);
      await exported.text();
      expect(exported.headers.getSetCookie().some((c) => c.startsWith("read_after="))).toBe(true);
      const listed = await rpc("auditLog/list", { organizationId: owner.organizationId });
      expect(listed.status).toBe(200);
      expect(listed.headers.getSetCookie().some((c) => c.startsWith("read_after="))).toBe(false);
    } finally {
      await standby.resumeReplay();
      await server.close();
    }
    await standby.caughtUp();
  });
});

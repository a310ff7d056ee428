// DATABASE_READ_URL pointing at a server that is not a hot standby (a typo naming the primary, a
// replica promoted after a failover): its reads are not trusted to follow the primary, so they go
// to DATABASE_URL, and the metrics and the log say why. Nothing fails for the person reading.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The per-file database is a primary: name it as the replica too, before anything reads the configuration.
process.env.DATABASE_READ_URL = process.env.DATABASE_URL;

const { authorizeOrganization } = await import("~/access/organization-access.server");
const { parseAuditSearchParams } = await import("~/audit/audit-query");
const { listAuditEvents } = await import("~/audit/query.server");
const { readAfterLsnFrom, readYourWritesCookie } = await import("~/lib/read-routing.server");
const { enableMetrics, renderMetrics } = await import("~/metrics/registry.server");
const { memberOfNewOrganization } = await import("../api-key-factories");
const { issueKey } = await import("../domain-calls");

beforeAll(() => enableMetrics({}));
afterAll(() => {
  delete process.env.DATABASE_READ_URL;
});

describe("a DATABASE_READ_URL that is not a standby", () => {
  it("is skipped: the primary answers, counted as not_standby, with replica_up 0", async () => {
    const owner = await memberOfNewOrganization("owner");
    await issueKey(owner.auth, owner.organization.id, { name: "visible", scopes: ["audit:view"] });
    const reader = await authorizeOrganization(owner.auth, owner.organization.id, "audit:view");
    const page = await listAuditEvents(reader, parseAuditSearchParams(new URLSearchParams()));
    expect(page.events.map((event) => event.action)).toContain("api_key.issued");
    const { body } = await renderMetrics();
    expect(body).toMatch(/^keyledger_replica_reads_total\{server="primary",reason="not_standby"\} [1-9]/m);
    expect(body).toMatch(/^keyledger_replica_up 0$/m);
    expect(body).toMatch(/^keyledger_db_pool_connections\{pool="replica"\}/m);
  });

  it("reads the cookie's position only in the form the primary writes it", async () => {
    const cookie = await readYourWritesCookie();
    const value = decodeURIComponent(cookie!.split(";")[0]!.split("=")[1]!);
    expect(readAfterLsnFrom(`read_after=${value}`)).toBeGreaterThan(0n);
    for (const forged of ["", "x", "1/2/3", "FFFFFFFFF/0", "-1/0", "0x10/0", "1/ 2"])
      expect(readAfterLsnFrom(`read_after=${forged}`)).toBeUndefined();
  });
});

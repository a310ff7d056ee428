// The digest job as a deployment runs it: the built server on this file's database with a signing
// key (tests/setup/per-file.ts gives each file one, and the servers inherit it) seals an
// organization's log by itself, first at once, then its next events once the interval has passed,
// and publishes the key it signs with. Without a key the server runs, says once that the log is not
// sealed, and writes no digest.
import { afterAll, describe, expect, it } from "vitest";
import { currentSigningKey } from "~/audit-integrity/signing-keys";
import { digestsOf, expectWholeChain, sealedIds } from "../audit-integrity";
import { recordChanges } from "../audit-streams";
import { createOrganizationWith, createUser } from "../factories";
import { startProductionServer, type ProductionServer } from "./production-server";
import { eventually } from "../eventually";

const servers: ProductionServer[] = [];
afterAll(async () => {
  for (const server of servers) await server.stop();
});

async function organizationWithEvents(count: number) {
  const user = await createUser();
  const organization = await createOrganizationWith([{ userId: user.id, role: "owner" }]);
  return { organizationId: organization.id, userId: user.id, ids: await recordChanges(organization.id, user.id, count) };
}

describe("the built server with AUDIT_SIGNING_KEY", () => {
  it("seals an organization's log by itself, then its next events in the next interval, with the key it publishes", async () => {
    const { organizationId, userId, ids } = await organizationWithEvents(3);
    const server = await startProductionServer(process.env.DATABASE_URL!, { AUDIT_DIGEST_INTERVAL: "1" });
    servers.push(server);
    await eventually(async () => (await digestsOf(organizationId)).length === 1, "the first digest", { everyMs: 200 });
    const later = await recordChanges(organizationId, userId, 2);
    await eventually(async () => sealedIds(await digestsOf(organizationId)).length === 5, "the next digest", { everyMs: 200 });
    const digests = await digestsOf(organizationId);
    expectWholeChain(digests);
    expect(sealedIds(digests)).toEqual([...ids, ...later]);
    const key = currentSigningKey()!;
    expect(digests.every((digest) => digest.document.keyId === key.id)).toBe(true);
    const published = (await (await fetch(`${server.origin}/.well-known/audit-log-keys.json`)).json()) as { keys: { id: string }[] };
    expect(published.keys.map((k) => k.id)).toEqual([key.id]);
    expect(server.stdout()).not.toMatch(/"level":(40|50|60)|"level":"(warn|error|fatal)"/);
    await server.stop();
  });
});

describe("the built server without a signing key", () => {
  it("runs, warns once that the audit log is not sealed, writes no digest and publishes no key", async () => {
    const { organizationId } = await organizationWithEvents(1);
    const server = await startProductionServer(process.env.DATABASE_URL!, { AUDIT_SIGNING_KEY: "", AUDIT_DIGEST_INTERVAL: "1" });
    servers.push(server);
    const published = (await (await fetch(`${server.origin}/.well-known/audit-log-keys.json`)).json()) as { keys: unknown[] };
    expect(published).toEqual({ keys: [] });
    await eventually(async () => /the audit log is not sealed/.test(server.stdout()), "the warning", { everyMs: 200 });
    // A few ticks' worth of waiting would find nothing to wait for: no schedule runs at all.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(await digestsOf(organizationId)).toEqual([]);
    expect(server.stdout().match(/the audit log is not sealed/g)).toHaveLength(1);
    await server.stop();
  });
});

// auditLog.verify (docs/contract.md): owners and admins get the verdict; members the refusal the
// audit procedures give; bad days a translated 400; one verification per organization at a time and
// a budget per user, both 429 with Retry-After (docs/decisions/0062-audit-verification.md).
import { describe, expect, it } from "vitest";
import { callRpc, joinOrganization, memberOfNewOrganization } from "../api-key-factories";
import { asOwner, seal } from "../audit-integrity";
import { recordChanges } from "../audit-streams";
import { withClient } from "../../scripts/lib/pg-client.ts";
import { call } from "../rpc";

const DE = { "accept-language": "de-DE,de;q=0.9" };

async function sealedOwner() {
  const owner = await memberOfNewOrganization("owner");
  await recordChanges(owner.organization.id, owner.user.id, 3);
  await seal(owner.organization.id);
  return owner;
}

describe("auditLog.verify", () => {
  it("gives owners and admins the verdict: intact, then the tampered event named", async () => {
    const { organization, token, user } = await sealedOwner();
    const admin = await joinOrganization(organization.id, "admin");
    const intact = await callRpc("auditLog/verify", { sessionToken: token, input: { organizationId: organization.id } });
    expect(intact.status).toBe(200);
    expect(intact.json).toMatchObject({ status: "intact", digestsChecked: 1, findings: [] });
    // The admin's own event (joining is not recorded here): the verdict counts the owner's three.
    expect(
      (await callRpc("auditLog/verify", { sessionToken: admin.token, input: { organizationId: organization.id } })).json,
    ).toMatchObject({
      status: "intact",
      eventsChecked: 3,
    });
    const { rows } = await asOwner<{ id: string }>(
      "SELECT id::text AS id FROM audit_events WHERE organization_id = $1 AND actor_id = $2 LIMIT 1",
      [organization.id, user.id],
    );
    await asOwner("UPDATE audit_events SET target_id = 'elsewhere' WHERE organization_id = $1 AND id = $2", [organization.id, rows[0]!.id]);
    const tampered = await callRpc("auditLog/verify", {
      sessionToken: token,
      input: { organizationId: organization.id, from: "", to: "" },
    });
    expect(tampered.json).toMatchObject({ status: "tampered", findings: [{ kind: "event-altered", eventId: rows[0]!.id, sequence: 1 }] });
  });

  it("refuses members as the audit procedures do, and another organization's log", async () => {
    const { organization } = await sealedOwner();
    const member = await joinOrganization(organization.id, "member");
    expect((await callRpc("auditLog/verify", { sessionToken: member.token, input: { organizationId: organization.id } })).status).toBe(403);
    const stranger = await memberOfNewOrganization("owner");
    expect((await callRpc("auditLog/verify", { sessionToken: stranger.token, input: { organizationId: organization.id } })).status).toBe(
      403,
    );
    expect((await callRpc("auditLog/verify", { input: { organizationId: organization.id } })).status).toBe(401);
  });

  it("answers bad days with a translated 400", async () => {
    const { organization, token } = await sealedOwner();
    const input = { organizationId: organization.id, from: "2026-02-30" };
    const english = await callRpc("auditLog/verify", { sessionToken: token, input });
    expect(english).toMatchObject({ status: 400, json: { message: "Dates must be real calendar dates in the form YYYY-MM-DD." } });
    const german = await callRpc("auditLog/verify", {
      sessionToken: token,
      input: { ...input, from: "2026-03-02", to: "2026-03-01" },
      headers: DE,
    });
    expect(german.status).toBe(400);
    expect(german.json.message).toMatch(/^Das Anfangsdatum darf nicht nach dem/);
    expect((await callRpc("auditLog/verify", { sessionToken: token, input: { ...input, extra: 1 } })).status).toBe(400);
  });

  it("lets one verification per organization run at a time: a second gets 429 with Retry-After", async () => {
    const { organization, token } = await sealedOwner();
    const refused = await withClient(process.env.DATABASE_URL!, async (other) => {
      await other.query("SELECT pg_advisory_lock(340062, hashtext($1))", [organization.id]);
      return call("auditLog/verify", token, { organizationId: organization.id }, DE);
    });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("30");
    expect(refused.json.message).toMatch(/läuft bereits/);
    // Released with the connection: the next one runs.
    expect((await callRpc("auditLog/verify", { sessionToken: token, input: { organizationId: organization.id } })).status).toBe(200);
  });

  it("counts verifications against the caller's budget", async () => {
    const { organization, token } = await sealedOwner();
    for (let i = 0; i < 10; i++) {
      expect((await callRpc("auditLog/verify", { sessionToken: token, input: { organizationId: organization.id } })).status).toBe(200);
    }
    const refused = await callRpc("auditLog/verify", { sessionToken: token, input: { organizationId: organization.id } });
    expect(refused.status).toBe(429);
    expect(refused.json.message).toMatch(/^Too many attempts/);
  });
});

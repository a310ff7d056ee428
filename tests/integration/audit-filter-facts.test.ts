// What the audit page's filter values name (app/audit/filter-facts.server.ts), against PostgreSQL:
// unknown actions, actors and targets are reported; known ones are not, an actor past the actor
// list's first 500 is still a choice, and a deleted target keeps its type (it is history, not unknown).
import { randomUUID } from "node:crypto";
import { v7 as uuidv7 } from "uuid";
import { describe, expect, it } from "vitest";
import { authorizeOrganization } from "~/access/organization-access.server";
import { loadAuditPage } from "~/audit/audit-page.server";
import { auditFilterFacts } from "~/audit/filter-facts.server";
import { pool } from "~/db.server";
import { recountRollups } from "~/audit/rollups.server";
import { memberOfNewOrganization } from "../api-key-factories";

async function insertEvent(organizationId: string, e: { actorId: string; targetType?: string; targetId?: string; action?: string }) {
  await pool().query(
    `INSERT INTO audit_events (id, organization_id, action, actor_kind, actor_id, target_type, target_id, details, content_hash)
     VALUES ($1, $2::uuid, $3, 'user', $4, $5, $6, '{}', 'x')`,
    [
      uuidv7(),
      organizationId,
      e.action ?? "organization.settings_changed",
      e.actorId,
      e.targetType ?? "organization",
      e.targetId ?? organizationId,
    ],
  );
  // Written past the recorder: its rollups are recounted as every bulk writer's are.
  await recountRollups(pool(), [organizationId]);
}

describe("the filters' facts", () => {
  it("names unknown values only, and offers every actor the URL names", async () => {
    const owner = await memberOfNewOrganization();
    const organizationId = owner.organization.id;
    const reader = await authorizeOrganization(owner.auth, organizationId, "audit:view");
    // 501 other actors whose ids sort before the one asked for: it is past the list's first 500.
    const late = `zz-${randomUUID()}`;
    await pool().query(
      `INSERT INTO audit_events (id, organization_id, action, actor_kind, actor_id, target_type, target_id, details, content_hash)
       SELECT gen_random_uuid(), $1::uuid, 'organization.settings_changed', 'user', 'a-' || lpad(n::text, 4, '0'), 'organization', $1, '{}', 'x'
         FROM generate_series(1, 501) AS n`,
      [organizationId],
    );
    await insertEvent(organizationId, { actorId: late, targetType: "api_key", targetId: "gone-key" });

    const known = await auditFilterFacts(reader, { action: "api_key.issued", actorId: late, targetId: "gone-key" });
    expect(known.unknown).toEqual({});
    expect(known.actors.map((a) => a.id)).toContain(late);
    // The key is gone (no row), but its history is there: its type stays, its name is null.
    expect(known.target).toEqual({ id: "gone-key", type: "api_key", name: null });

    const unknown = await auditFilterFacts(reader, { action: "nope", actorId: "xyz", targetId: randomUUID() });
    expect(Object.keys(unknown.unknown).sort()).toEqual(["action", "actorId", "targetId"]);
    expect(unknown.unknown.action).toBe("nope");
    expect(unknown.target).toBeNull();
    expect(unknown.actors.map((a) => a.id)).not.toContain("xyz");

    // Another organization's actor is unknown here.
    const other = await memberOfNewOrganization();
    const otherActor = `other-${randomUUID()}`;
    await insertEvent(other.organization.id, { actorId: otherActor });
    expect((await auditFilterFacts(reader, { actorId: otherActor })).unknown).toEqual({ actorId: otherActor });

    // The page's loader carries them, and the applied filters stay as the URL has them.
    const page = await loadAuditPage(reader, new URLSearchParams({ action: "nope", actorId: late }));
    expect(page.unknown).toEqual({ action: "nope" });
    expect(page.filters).toEqual({ action: "nope", actorId: late });
    expect(page.actors.map((a) => a.id)).toContain(late);
    expect(Date.parse(page.now)).not.toBeNaN();
  });
});

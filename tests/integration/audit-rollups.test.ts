// The rollups (audit_event_days, audit_event_actors, audit_event_users) are written by the recorder
// in the statement that inserts the event, and recounted by bulk writers with recountRollups
// (app/audit/rollups.server.ts, decision 0049). Whatever the mix, they must equal what a GROUP BY
// over the events gives: several actors and kinds, users as targets, several days and actions,
// idempotent replays (counted once), a rolled-back transaction and a refused replay (counted not
// at all), recorders racing on one day's row (no count lost).
import { randomUUID } from "node:crypto";
import { v7 as uuidv7 } from "uuid";
import { describe, expect, it } from "vitest";
import { recordAuditEvent, type AuditEventInput } from "~/audit/record.server";
import { recountRollups } from "~/audit/rollups.server";
import { PREPARE_THIS, pool, prisma } from "~/db.server";
import { isDomainError } from "~/lib/domain-error";
import { rollupDisagreements as disagreements } from "../audit-rollups-check";
import { createOrganizationWith, createUser } from "../factories";

const record = (input: AuditEventInput) => prisma.$transaction((tx) => recordAuditEvent(tx, input));

function roleChange(organizationId: string, actorId: string, targetId: string, idempotencyKey?: string): AuditEventInput {
  return {
    organizationId,
    action: "member.role_changed",
    actor: { kind: "user", id: actorId },
    target: { type: "user", id: targetId },
    details: { from: "member", to: "admin" },
    ...(idempotencyKey ? { idempotencyKey } : {}),
  };
}

function keyRevoked(organizationId: string, actor: AuditEventInput["actor"], name = "CI"): AuditEventInput {
  return { organizationId, action: "api_key.revoked", actor, target: { type: "api_key", id: randomUUID() }, details: { name } };
}

async function keptCount(organizationId: string, action: string): Promise<number> {
  const { rows } = await pool().query<{ n: number }>(
    `SELECT coalesce(sum(events), 0)::int AS n FROM audit_event_days WHERE organization_id = $1 AND action = $2`,
    [organizationId, action],
  );
  return rows[0]!.n;
}

describe("the audit log's rollups", () => {
  it("equal a recount of the events after a mix of recorded and bulk-written events", async () => {
    const [owner, admin, member] = await Promise.all([createUser(), createUser(), createUser()]);
    const a = await createOrganizationWith([{ userId: owner.id, role: "owner" }]);
    const b = await createOrganizationWith([{ userId: admin.id, role: "owner" }]);

    // History on other days, written past the recorder (as the seeds do) and recounted.
    const history = [
      ["2025-03-01T23:59:59.999Z", "member.role_changed", "user", owner.id, "user", member.id],
      ["2025-03-02T00:00:00.000Z", "member.role_changed", "user", owner.id, "user", admin.id],
      ["2025-03-02T12:00:00.000Z", "api_key.revoked", "api_key", "bot-key-1", "api_key", randomUUID()],
      ["2025-03-02T12:00:01.000Z", "api_key.revoked", "system", "account-deletion", "api_key", randomUUID()],
    ];
    for (const [at, action, kind, actor, targetType, target] of history) {
      await pool().query(
        `INSERT INTO audit_events (id, organization_id, created_at, action, actor_kind, actor_id, target_type, target_id, details, content_hash)
         VALUES ($1, $2, $3, $4, $5::"ActorKind", $6, $7, $8, '{}', 'x')`,
        [uuidv7(), a.id, at, action, kind, actor, targetType, target],
      );
    }
    await recountRollups(pool(), [a.id]);
    await recountRollups(pool(), [a.id]); // twice: it sets counts, it does not add to them

    // Today's, through the recorder: users, a user as target, an API key and the system as actors.
    await record(roleChange(a.id, owner.id, member.id));
    await record(keyRevoked(a.id, { kind: "api_key", id: "bot-key-2" }));
    await record(keyRevoked(a.id, { kind: "system", id: "billing" }));
    await record(roleChange(b.id, admin.id, owner.id));

    // An idempotent replay counts once.
    const first = await record(roleChange(a.id, admin.id, member.id, "replayed-key"));
    const again = await record(roleChange(a.id, admin.id, member.id, "replayed-key"));
    expect([first.recorded, again.recorded, again.id]).toEqual([true, false, first.id]);

    // A replay with other contents is refused, and takes its transaction's other event with it.
    const someoneNew = randomUUID();
    await expect(
      prisma.$transaction(async (tx) => {
        await recordAuditEvent(tx, keyRevoked(a.id, { kind: "user", id: someoneNew }));
        await recordAuditEvent(tx, roleChange(a.id, admin.id, owner.id, "replayed-key"));
      }),
    ).rejects.toSatisfy((e) => isDomainError(e) && e.code === "CONFLICT");

    // A transaction that fails after recording leaves neither the event nor its rollups.
    const ghost = randomUUID();
    await expect(
      prisma.$transaction(async (tx) => {
        await recordAuditEvent(tx, roleChange(a.id, ghost, ghost));
        throw new Error("the change failed after its event was recorded");
      }),
    ).rejects.toThrow(/failed after/);

    // Recorders racing on the same day's row: every one counted.
    const racing = 16;
    const before = await keptCount(a.id, "api_key.revoked");
    await Promise.all(Array.from({ length: racing }, (_, i) => record(keyRevoked(a.id, { kind: "user", id: admin.id }, `race ${i}`))));
    expect(await keptCount(a.id, "api_key.revoked")).toBe(before + racing);

    expect(await disagreements([a.id, b.id])).toEqual([]);
    const actors = await pool().query<{ actor_id: string }>("SELECT actor_id FROM audit_event_actors WHERE organization_id = $1", [a.id]);
    expect(actors.rows.map((r) => r.actor_id)).not.toContain(someoneNew);
    expect(actors.rows.map((r) => r.actor_id)).not.toContain(ghost);
    expect(actors.rows.map((r) => r.actor_id)).toEqual(expect.arrayContaining([owner.id, admin.id, "bot-key-1", "bot-key-2", "billing"]));
    const users = await pool().query<{ user_id: string }>("SELECT user_id FROM audit_event_users WHERE organization_id = $1", [b.id]);
    expect(users.rows.map((r) => r.user_id).sort()).toEqual([admin.id, owner.id].sort());
  });

  it("is one prepared statement per connection, planned once (the recorder's mark)", async () => {
    const user = await createUser();
    const organization = await createOrganizationWith([{ userId: user.id, role: "owner" }]);
    const prepared = await prisma.$transaction(async (tx) => {
      await recordAuditEvent(tx, roleChange(organization.id, user.id, user.id));
      // The same connection: pg_prepared_statements lists its own session's statements.
      return tx.$queryRaw<{ statement: string }[]>`SELECT statement FROM pg_prepared_statements WHERE statement LIKE ${`${PREPARE_THIS}%`}`;
    });
    expect(prepared).toHaveLength(1);
    expect(prepared[0]!.statement).toContain("INSERT INTO audit_event_days");
  });

  it("recountRollups does nothing for no organization, and leaves other organizations' rollups alone", async () => {
    const user = await createUser();
    const mine = await createOrganizationWith([{ userId: user.id, role: "owner" }]);
    const other = await createOrganizationWith([{ userId: user.id, role: "owner" }]);
    await record(roleChange(other.id, user.id, user.id));
    await pool().query(
      `INSERT INTO audit_events (id, organization_id, action, actor_kind, actor_id, target_type, target_id, details, content_hash)
       VALUES ($1, $2, 'member.role_changed', 'user', $3, 'user', $3, '{}', 'x')`,
      [uuidv7(), mine.id, user.id],
    );
    await recountRollups(pool(), []);
    expect(await disagreements([mine.id])).toHaveLength(3); // its day, actor and user are missing
    await recountRollups(pool(), [mine.id]);
    expect(await disagreements([mine.id, other.id])).toEqual([]);
    expect(await keptCount(other.id, "member.role_changed")).toBe(1);
  });
});

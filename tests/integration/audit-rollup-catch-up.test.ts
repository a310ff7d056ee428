// A rolling upgrade to the release without triggers (decision 0049): instances of the release
// before it keep recording beside the new schema with a plain INSERT, which no trigger rolls up any
// more. The catch-up (app/audit/rollup-catch-up.server.ts) then makes the rollups whole: exact day
// counts, every actor and user named, nothing counted twice, no count lost to recorders running at
// the same time, and only in the window after the upgrade.
import { randomUUID } from "node:crypto";
import { v7 as uuidv7 } from "uuid";
import { describe, expect, it } from "vitest";
import { recordAuditEvent } from "~/audit/record.server";
import {
  auditCronItems,
  auditTasks,
  catchUpRollups,
  ROLLOUT_WINDOW_MS,
  ROLLUP_CATCH_UP_TASK,
  rollupCatchUpWindow,
  TRIGGERS_DROPPED_BY,
} from "~/audit/rollup-catch-up.server";
import { pool, prisma } from "~/db.server";
import { enqueueJob, runDueJobs } from "~/jobs/queue.server";
import { rollupDisagreements } from "../audit-rollups-check";
import { createOrganizationWith, createUser } from "../factories";

const HOUR = 60 * 60 * 1000;

/** An event as the previous release wrote it once the triggers were gone: the row alone. */
async function oldReleaseEvent(organizationId: string, actorId: string, targetUserId: string) {
  await pool().query(
    `INSERT INTO audit_events (id, organization_id, action, actor_kind, actor_id, target_type, target_id, details, content_hash)
     VALUES ($1, $2, 'member.role_changed', 'user', $3, 'user', $4, '{"from":"member","to":"admin"}', 'x')`,
    [uuidv7(), organizationId, actorId, targetUserId],
  );
}

function recordRoleChange(organizationId: string, actorId: string) {
  return prisma.$transaction((tx) =>
    recordAuditEvent(tx, {
      organizationId,
      action: "member.role_changed",
      actor: { kind: "user", id: actorId },
      target: { type: "user", id: actorId },
      details: { from: "member", to: "admin" },
    }),
  );
}

async function organizationWithOwner() {
  const owner = await createUser();
  const organization = await createOrganizationWith([{ userId: owner.id, role: "owner" }]);
  return { owner, organization };
}

describe("the rollups' catch-up after the upgrade", () => {
  it("counts, lists and names what the previous release wrote without rollups, and a second run changes nothing", async () => {
    const { owner, organization } = await organizationWithOwner();
    await recordRoleChange(organization.id, owner.id);
    const [oldActor, oldTarget] = [randomUUID(), randomUUID()];
    for (let i = 0; i < 3; i++) await oldReleaseEvent(organization.id, oldActor, oldTarget);
    expect((await rollupDisagreements([organization.id])).map((r: { rollup: string }) => r.rollup).sort()).toEqual(
      ["actor missing", "days", "user missing", "user missing"].sort(),
    );

    const window = await rollupCatchUpWindow();
    expect(window).not.toBeNull();
    expect((await catchUpRollups(window!)).days).toBeGreaterThan(0);
    expect(await rollupDisagreements([organization.id])).toEqual([]);
    const kept = await pool().query("SELECT * FROM audit_event_days WHERE organization_id = $1", [organization.id]);
    expect(kept.rows).toEqual([expect.objectContaining({ action: "member.role_changed", events: "4" })]);

    await catchUpRollups(window!);
    expect((await pool().query("SELECT * FROM audit_event_days WHERE organization_id = $1", [organization.id])).rows).toEqual(kept.rows);
    expect(await rollupDisagreements([organization.id])).toEqual([]);
  });

  it("loses no count to recorders adding to the same day at the same time", async () => {
    const { owner, organization } = await organizationWithOwner();
    for (let round = 0; round < 3; round++) {
      await oldReleaseEvent(organization.id, owner.id, owner.id);
      const window = (await rollupCatchUpWindow())!;
      await Promise.all([
        catchUpRollups(window),
        ...Array.from({ length: 8 }, () => recordRoleChange(organization.id, owner.id)),
        catchUpRollups(window),
      ]);
    }
    expect(await rollupDisagreements([organization.id])).toEqual([]);
  });

  it("runs as the worker's task, as the app's role", async () => {
    const { owner, organization } = await organizationWithOwner();
    await oldReleaseEvent(organization.id, owner.id, randomUUID());
    await prisma.$transaction((tx) => enqueueJob(tx, ROLLUP_CATCH_UP_TASK, {}));
    await runDueJobs(auditTasks);
    expect(await rollupDisagreements([organization.id])).toEqual([]);
  });

  it("opens an hour before the migration ran, closes a day after, and is scheduled only while open", async () => {
    const { rows } = await pool().query<{ at: Date }>(`SELECT started_at AS at FROM "_prisma_migrations" WHERE migration_name = $1`, [
      TRIGGERS_DROPPED_BY,
    ]);
    const ran = rows[0]!.at.getTime();
    expect(await rollupCatchUpWindow(new Date(ran + HOUR))).toEqual({ from: new Date(ran - HOUR), to: new Date(ran + HOUR) });
    expect(await rollupCatchUpWindow(new Date(ran + ROLLOUT_WINDOW_MS + HOUR))).toEqual({
      from: new Date(ran - HOUR),
      to: new Date(ran + ROLLOUT_WINDOW_MS),
    });
    expect(await rollupCatchUpWindow(new Date(ran + ROLLOUT_WINDOW_MS + 3 * HOUR))).toBeNull();
    expect((await auditCronItems()).map((item) => item.task)).toEqual([ROLLUP_CATCH_UP_TASK]);
    expect(await auditCronItems(new Date(ran + ROLLOUT_WINDOW_MS + 3 * HOUR))).toEqual([]);
  });
});

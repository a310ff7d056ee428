// The demo data (prisma/seed.ts, prisma/demo/): about 90 days of history written through the
// domain functions and moved back in time. Loaded once for the file (two seeders at once: one
// loads, the other finds it loaded), then checked: every catalog action, keys in every state whose
// columns agree with their events, the contract's accounts, and nothing left behind.
import { beforeAll, describe, expect, it } from "vitest";
import { AUDIT_ACTIONS } from "~/audit/catalog";
import { auditContentHash } from "~/audit/record.server";
import { pool, prisma } from "~/db.server";
import { DEMO_EXTRA_USERS, DEMO_ORGANIZATIONS, DEMO_USERS, seedDemoData } from "../../prisma/seed.ts";
import { createOrganizationWith } from "../factories";
import { queryOnce } from "../../scripts/lib/pg-client";

const DAY = 24 * 60 * 60 * 1000;
const now = new Date();
let outcomes: boolean[] = [];
let orgIds: string[] = [];
let leftByFailedRun: Record<string, number> = {};

interface EventRow {
  id: string;
  organization_id: string;
  created_at: Date;
  action: string;
  actor_kind: string;
  actor_id: string;
  target_type: string;
  target_id: string;
  details: Record<string, unknown>;
  content_hash: string;
}

const events = async () =>
  (
    await pool().query<EventRow>(
      `SELECT id::text, organization_id::text, created_at, action, actor_kind::text, actor_id, target_type, target_id, details, content_hash
       FROM audit_events WHERE organization_id = ANY($1::uuid[]) ORDER BY created_at, id`,
      [orgIds],
    )
  ).rows;

const rowCounts = async () =>
  Object.fromEntries(
    await Promise.all(
      ["organizations", "users", "memberships", "invitations", "api_keys", "audit_events", "sessions"].map(
        async (table) =>
          [
            table,
            Number((await queryOnce<{ count: string }>(process.env.DATABASE_URL!, `SELECT count(*) FROM ${table}`)).rows[0]!.count),
          ] as const,
      ),
    ),
  );

beforeAll(async () => {
  const url = process.env.DATABASE_URL!;
  // First a run that fails halfway: Globex's founding slug is taken, while Acme's story has begun.
  const squatter = await createOrganizationWith([]);
  await prisma.$transaction([
    prisma.organizationSlug.update({ where: { organizationId: squatter.id }, data: { slug: "globex-corporation" } }),
    prisma.organization.update({ where: { id: squatter.id }, data: { slug: "globex-corporation" } }),
  ]);
  await expect(seedDemoData(url, now)).rejects.toThrow();
  await prisma.$transaction([
    prisma.organization.delete({ where: { id: squatter.id } }),
    prisma.organizationSlug.delete({ where: { organizationId: squatter.id } }),
  ]);
  leftByFailedRun = await rowCounts();
  outcomes = await Promise.all([seedDemoData(url, now), seedDemoData(url, now)]);
  orgIds = (await prisma.organization.findMany({ where: { slug: { in: ["acme", "globex"] } }, select: { id: true } })).map((o) => o.id);
}, 240_000);

describe("demo data", () => {
  it("leaves nothing behind when the story fails halfway (both organizations' stories stop)", () => {
    expect(leftByFailedRun).toEqual({
      organizations: 0,
      users: 0,
      memberships: 0,
      invitations: 0,
      api_keys: 0,
      audit_events: 0,
      sessions: 0,
    });
  });

  it("loads once: of two seeders at once one loads and the other finds it loaded; a third refuses", async () => {
    expect([...outcomes].sort()).toEqual([false, true]);
    expect(await seedDemoData(process.env.DATABASE_URL!)).toBe(false);
    expect(await prisma.organization.count({ where: { slug: { in: ["acme", "globex"] } } })).toBe(2);
  });

  it("keeps the contract's organizations and accounts, with the extras where the story leaves them", async () => {
    const organizations = await prisma.organization.findMany({ where: { id: { in: orgIds } }, orderBy: { slug: "asc" } });
    expect(organizations.map((o) => ({ slug: o.slug, name: o.name, planId: o.planId, billingState: o.billingState }))).toEqual(
      DEMO_ORGANIZATIONS.map((o) => ({ slug: o.slug, name: o.name, planId: o.planId, billingState: "active" })),
    );
    for (const user of [...DEMO_USERS, ...DEMO_EXTRA_USERS]) {
      const found = await prisma.user.findUnique({
        where: { email: user.email },
        select: { memberships: { select: { role: true, organization: { select: { slug: true } } } } },
      });
      if (user.email === "frank@acme.test") {
        expect(found, "Frank deleted his account in the story").toBeNull();
        continue;
      }
      expect(
        found?.memberships.map((m) => [m.organization.slug, m.role]),
        user.email,
      ).toEqual(user.org ? [[user.org, user.role]] : []);
    }
  });

  it("has a few thousand events of every catalog action, spread over the last 90 days, by several actors", async () => {
    const rows = await events();
    expect(rows.length).toBeGreaterThan(2500);
    // Both organizations lived: each has a history of its own, by more than one person.
    for (const organizationId of orgIds) {
      const own = rows.filter((e) => e.organization_id === organizationId);
      expect(own.length).toBeGreaterThan(1000);
      expect(new Set(own.filter((e) => e.actor_kind === "user").map((e) => e.actor_id)).size).toBeGreaterThanOrEqual(3);
    }
    expect(new Set(rows.map((e) => e.action))).toEqual(new Set(AUDIT_ACTIONS));
    expect(rows[0]!.created_at.getTime()).toBeGreaterThan(now.getTime() - 91 * DAY);
    expect(rows[0]!.created_at.getTime()).toBeLessThan(now.getTime() - 89 * DAY);
    expect(rows.at(-1)!.created_at.getTime()).toBeLessThan(now.getTime());
    expect(rows.at(-1)!.created_at.getTime()).toBeGreaterThan(now.getTime() - 4 * DAY);
    // Every week of the 90 days has events.
    const weeks = new Set(rows.map((e) => Math.floor((now.getTime() - e.created_at.getTime()) / (7 * DAY))));
    expect(weeks.size).toBeGreaterThanOrEqual(13);
    const users = new Set(rows.filter((e) => e.actor_kind === "user").map((e) => e.actor_id));
    expect(users.size).toBeGreaterThanOrEqual(10);
    expect(rows.some((e) => e.actor_kind === "system" && e.actor_id === "billing-provider")).toBe(true);
    // Someone whose account is gone acted (the log shows a deleted user).
    const existing = new Set((await prisma.user.findMany({ where: { id: { in: [...users] } }, select: { id: true } })).map((u) => u.id));
    expect([...users].some((id) => !existing.has(id))).toBe(true);
    // Renamed: an organization's name and slug changed.
    const renames = rows.filter((e) => e.action === "organization.settings_changed").map((e) => Object.keys(e.details));
    expect(renames.flat()).toEqual(expect.arrayContaining(["name", "slug"]));
  });

  it("gives ids that follow time, contents whose hash holds, and day counts that match the events", async () => {
    const rows = await events();
    const byId = [...rows].sort((a, b) => (a.id < b.id ? -1 : 1));
    expect(byId.map((e) => e.id)).toEqual(rows.map((e) => e.id));
    for (const e of rows) {
      const hash = auditContentHash({
        action: e.action,
        actor: { kind: e.actor_kind, id: e.actor_id },
        target: { type: e.target_type, id: e.target_id },
        details: e.details,
      });
      expect(hash, `${e.action} ${e.id}`).toBe(e.content_hash);
    }
    const days = await pool().query<{ mismatches: number }>(
      `SELECT count(*)::int AS mismatches FROM (
         SELECT organization_id, (created_at AT TIME ZONE 'UTC')::date AS day, action, count(*) AS events FROM audit_events
         WHERE organization_id = ANY($1::uuid[]) GROUP BY 1, 2, 3) e
       FULL JOIN (SELECT * FROM audit_event_days WHERE organization_id = ANY($1::uuid[])) d USING (organization_id, day, action)
       WHERE e.events IS DISTINCT FROM d.events`,
      [orgIds],
    );
    expect(days.rows[0]!.mismatches).toBe(0);
  });

  it("has keys in every state, each one's times agreeing with its events", async () => {
    const rows = await events();
    const keys = await prisma.apiKey.findMany({ where: { organizationId: { in: orgIds } } });
    const states = new Set<string>();
    for (const key of keys) {
      const own = rows.filter((e) => e.target_id === key.id);
      const issued = own.filter((e) => e.action === "api_key.issued");
      const revoked = own.filter((e) => e.action === "api_key.revoked");
      const rotations = own.filter((e) => e.action === "api_key.rotated");
      expect(issued, key.name).toHaveLength(1);
      expect(key.createdAt.getTime(), key.name).toBe(issued[0]!.created_at.getTime());
      expect(issued[0]!.details.expiresAt, key.name).toBe(key.expiresAt?.toISOString() ?? null);
      expect(
        revoked.map((e) => e.created_at.getTime()),
        key.name,
      ).toEqual(key.revokedAt ? [key.revokedAt.getTime()] : []);
      const end = Math.min(key.revokedAt?.getTime() ?? Infinity, key.expiresAt?.getTime() ?? Infinity, now.getTime());
      for (const rotation of rotations) {
        expect(rotation.created_at.getTime(), key.name).toBeGreaterThan(key.createdAt.getTime());
        expect(rotation.created_at.getTime(), `${key.name} rotated while it could not be`).toBeLessThan(end);
      }
      if (key.lastUsedAt) {
        expect(key.lastUsedAt.getTime(), key.name).toBeGreaterThanOrEqual(key.createdAt.getTime());
        expect(key.lastUsedAt.getTime(), key.name).toBeLessThanOrEqual(end);
      }
      if (key.revokedAt) states.add("revoked");
      else if (key.expiresAt && key.expiresAt <= now) states.add("expired");
      else if (key.expiresAt && key.expiresAt.getTime() - now.getTime() < 7 * DAY) states.add("expiring soon");
      else states.add("active");
      if (rotations.length > 0 && !key.revokedAt) states.add("rotated");
    }
    expect(states).toEqual(new Set(["active", "expiring soon", "expired", "revoked", "rotated"]));
    for (const organizationId of orgIds) {
      expect(keys.filter((k) => k.organizationId === organizationId && !k.revokedAt).length).toBeLessThanOrEqual(25);
    }
  });

  it("backdates invitations, memberships and accounts from their events, and leaves no session, mail job or rate-limit count", async () => {
    const rows = await events();
    const invitations = await prisma.invitation.findMany({ where: { organizationId: { in: orgIds } } });
    expect(invitations.length).toBeGreaterThan(0);
    for (const invitation of invitations) {
      const sent = rows.find((e) => e.action === "invitation.sent" && e.target_id === invitation.id)!;
      expect(invitation.createdAt.getTime()).toBe(sent.created_at.getTime());
      expect(invitation.status).not.toBe("pending");
    }
    const memberships = await prisma.membership.findMany({ where: { organizationId: { in: orgIds } }, include: { user: true } });
    for (const membership of memberships) {
      expect(membership.createdAt.getTime()).toBeLessThan(now.getTime() - 30 * DAY);
      expect(membership.user.createdAt.getTime()).toBeLessThanOrEqual(membership.createdAt.getTime());
    }
    const userIds = memberships.map((m) => m.userId);
    expect(await prisma.session.count({ where: { userId: { in: userIds } } })).toBe(0);
    expect(Number((await pool().query("SELECT count(*) FROM graphile_worker.jobs")).rows[0].count)).toBe(0);
    const limits = await pool().query("SELECT key FROM rate_limits WHERE key LIKE ANY($1)", [
      [...userIds, ...orgIds].map((id) => `%${id}%`),
    ]);
    expect(limits.rows).toEqual([]);
  });

  it("leaves the audit log append-only for the app (no trigger to switch off, no privilege to change it)", async () => {
    const triggers = await pool().query("SELECT tgname FROM pg_trigger WHERE tgrelid = 'audit_events'::regclass AND NOT tgisinternal");
    expect(triggers.rows).toEqual([]);
    await expect(pool().query("UPDATE audit_events SET details = details WHERE organization_id = $1::uuid", [orgIds[0]])).rejects.toThrow(
      /permission denied for table audit_events/,
    );
  });
});

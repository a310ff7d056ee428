// A first start killed while the demo story was being told leaves the accounts (committed first)
// and part of the story, never moved back in time. The embedded start (repairInterrupted) removes
// those leftovers and loads the demo again; `npm run db:seed` (no repair) still refuses, and a
// completed demo is never touched.
import { expect, it } from "vitest";
import { pool, prisma } from "~/db.server";
import { DEMO_EXTRA_USERS, DEMO_USERS, seedDemoData } from "../../prisma/seed.ts";

const demoEmails = [...DEMO_USERS, ...DEMO_EXTRA_USERS].map((u) => u.email);

it("reloads the demo over a killed run's leftovers on the embedded start, and leaves a complete one alone", async () => {
  const url = process.env.DATABASE_URL!;
  // What a killed run leaves: the accounts, Acme founded, one event of today.
  const owner = await prisma.user.create({
    data: { email: "owner@acme.test", name: "Olivia Owner", passwordHash: "x", emailVerifiedAt: new Date() },
  });
  await prisma.user.create({ data: { email: "diego@acme.test", name: "Diego", passwordHash: "x", emailVerifiedAt: new Date() } });
  const half = await prisma.organization.create({ data: { name: "Acme Corp", slug: "acme" } });
  await prisma.organizationSlug.create({ data: { slug: "acme", organizationId: half.id } });
  await prisma.membership.create({ data: { organizationId: half.id, userId: owner.id, role: "owner" } });

  expect(await seedDemoData(url)).toBe(false);
  expect(await prisma.organization.count({ where: { id: half.id } })).toBe(1);

  expect(await seedDemoData(url, new Date(), { repairInterrupted: true })).toBe(true);
  expect(await prisma.organization.count({ where: { id: half.id } })).toBe(0);
  expect(await prisma.user.count({ where: { email: { in: demoEmails } } })).toBe(demoEmails.length - 1); // Frank's account is deleted by the story
  const acme = { id: (await prisma.organizationSlug.findUniqueOrThrow({ where: { slug: "acme" } })).organizationId };
  const { rows } = await pool().query<{ oldest: Date }>("SELECT min(created_at) AS oldest FROM audit_events WHERE organization_id = $1", [
    acme.id,
  ]);
  expect(Date.now() - rows[0]!.oldest.getTime()).toBeGreaterThan(80 * 24 * 60 * 60 * 1000);

  // Complete now: asking again repairs nothing and loads nothing.
  expect(await seedDemoData(url, new Date(), { repairInterrupted: true })).toBe(false);
  expect((await prisma.organizationSlug.findUniqueOrThrow({ where: { slug: "acme" } })).organizationId).toBe(acme.id);
}, 240_000);

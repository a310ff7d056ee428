// Globex's 85 days: founded as "Globex Corporation" on Enterprise, renamed, refunded back to Free
// and on Team since; a late payment; a canceled invitation; a few keys (one expired, one revoked),
// a nightly backup job rotating its key, and a small deploy pipeline. Owner Gustav alone.
import type { DemoWorld } from "./world.ts";

const OWNER = "owner@globex.test";
const GLOBEX = "globex";

const isWeekday = (date: Date) => date.getUTCDay() !== 0 && date.getUTCDay() !== 6;
const isoDay = (date: Date) => date.toISOString().slice(0, 10);

export function planGlobex(world: DemoWorld, random: () => number): void {
  const t = world.timeline;
  const at = (daysAgo: number, hour: number, minute: number, run: () => Promise<unknown>) => t.plan(t.day(daysAgo, hour, minute), run);
  const ago = (ms: number) => new Date(t.now.getTime() - ms);
  let consultant = "";

  at(85, 8, 30, () => world.createOrganization(OWNER, GLOBEX, "Globex Corporation", "globex-corporation"));
  at(85, 8, 40, () => world.checkout(OWNER, GLOBEX, "enterprise"));
  at(83, 12, 0, () => world.updateSettings(OWNER, GLOBEX, { name: "Globex" }));
  at(83, 12, 5, () => world.updateSettings(OWNER, GLOBEX, { slug: "globex" }));
  at(65, 10, 0, async () => (consultant = (await world.invite(OWNER, GLOBEX, "consultant@example.com", "member")).id));
  at(64, 9, 0, () => world.cancelInvitation(OWNER, GLOBEX, consultant));
  at(60, 5, 0, () => world.providerEvent(GLOBEX, "payment_failed"));
  at(58, 5, 0, () => world.providerEvent(GLOBEX, "payment_recovered"));
  at(55, 13, 0, () => world.providerEvent(GLOBEX, "refund"));
  at(54, 9, 15, () => world.checkout(OWNER, GLOBEX, "team"));

  at(84, 9, 0, () =>
    world.issueKey(OWNER, GLOBEX, "Storefront", { scopes: ["organization:read", "billing:view"], lastUsedAt: ago(60_000) }),
  );
  for (let daysAgo = 70; daysAgo >= 1; daysAgo -= 14) at(daysAgo, 8, 0, () => world.rotateKey(OWNER, GLOBEX, "Storefront"));
  at(82, 9, 30, () => world.issueKey(OWNER, GLOBEX, "Old checkout", { scopes: ["organization:read"], lastUsedAt: t.day(41, 12, 0) }));
  at(40, 10, 0, () => world.revokeKey(OWNER, GLOBEX, "Old checkout"));
  at(80, 14, 0, () =>
    world.issueKey(OWNER, GLOBEX, "Inventory sync", { scopes: ["organization:read"], lifetimeDays: 120, lastUsedAt: ago(20 * 60_000) }),
  );
  at(50, 11, 0, () =>
    world.issueKey(OWNER, GLOBEX, "Holiday promo", { scopes: ["organization:read"], lifetimeDays: 20, lastUsedAt: t.day(31, 18, 0) }),
  );

  at(75, 1, 0, () =>
    world.issueKey(OWNER, GLOBEX, "Nightly backup", { scopes: ["organization:read", "member:read"], lastUsedAt: t.day(1, 2, 1) }),
  );
  for (let daysAgo = 74; daysAgo >= 1; daysAgo--) at(daysAgo, 2, 0, () => world.rotateKey(OWNER, GLOBEX, "Nightly backup"));

  for (let daysAgo = 70; daysAgo >= 1; daysAgo--) {
    if (!isWeekday(t.day(daysAgo))) continue;
    const deploys = 1 + Math.floor(random() * 3);
    for (let n = 1; n <= deploys; n++) {
      const start = t.day(daysAgo, 10, 0).getTime() + (n - 1) * 120 * 60_000 + Math.floor(random() * 60) * 60_000;
      const label = `release-${isoDay(t.day(daysAgo))}-${n}`;
      t.plan(new Date(start), () =>
        world.issueKey(OWNER, GLOBEX, label, { scopes: ["organization:read"], lifetimeDays: 1, lastUsedAt: new Date(start + 60_000) }),
      );
      t.plan(new Date(start + 30 * 60_000), () => world.revokeKey(OWNER, GLOBEX, label));
    }
  }
}

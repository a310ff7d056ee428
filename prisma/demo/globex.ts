// Globex's 85 days: founded as "Globex Corporation" on Enterprise, renamed, refunded back to Free
// and on Team since; a late payment; a team that grows (Hana, Luis, Noor; Tom a temporary hand who
// leaves), invitations canceled; a few keys (one expired, one revoked), a nightly backup job and a
// payments webhook rotating their keys, stores onboarded with a key each, and a release pipeline
// that Hana takes over from Gustav.
import type { DemoWorld } from "./world.ts";

const OWNER = "owner@globex.test";
const HANA = "hana@globex.test";
const GLOBEX = "globex";

const isWeekday = (date: Date) => date.getUTCDay() !== 0 && date.getUTCDay() !== 6;
const isoDay = (date: Date) => date.toISOString().slice(0, 10);

export function planGlobex(world: DemoWorld, random: () => number): void {
  const t = world.timeline;
  const at = (daysAgo: number, hour: number, minute: number, run: () => Promise<unknown>) => t.plan(t.day(daysAgo, hour, minute), run);
  const ago = (ms: number) => new Date(t.now.getTime() - ms);
  let consultant = "";
  const invitations = new Map<string, { id: string; token: string }>();
  const join = (daysAgo: number, email: string, role: "admin" | "member", acceptAfterMinutes: number) => {
    at(daysAgo, 10, 30, async () => invitations.set(email, await world.invite(OWNER, GLOBEX, email, role)));
    t.plan(new Date(t.day(daysAgo, 10, 30).getTime() + acceptAfterMinutes * 60_000), () =>
      world.accept(email, invitations.get(email)!.token),
    );
  };
  join(82, HANA, "member", 45);
  join(78, "luis@globex.test", "member", 3 * 60);
  join(73, "tom@globex.test", "member", 20);
  join(47, "noor@globex.test", "member", 25 * 60);
  at(76, 9, 0, () => world.changeRole(OWNER, GLOBEX, HANA, "admin"));
  at(44, 17, 45, () => world.leave("tom@globex.test", GLOBEX));
  for (const [n, email] of ["agency@brand.example", "temp@staffing.example", "intern@school.example"].entries()) {
    at(69 - n * 21, 14, 0, async () => invitations.set(email, await world.invite(n === 1 ? HANA : OWNER, GLOBEX, email, "member")));
    at(67 - n * 21, 9, 30, () => world.cancelInvitation(HANA, GLOBEX, invitations.get(email)!.id));
  }
  // Exports while the plan still had them.
  at(80, 16, 0, () => world.exportLog(OWNER, GLOBEX, "?format=csv"));
  at(70, 11, 0, () => world.exportLog(HANA, GLOBEX, "?format=json&action=api_key.issued"));
  at(57, 15, 0, () => world.exportLog(OWNER, GLOBEX, "?format=csv"));
  // The storefront's name, as marketing would have it.
  at(62, 13, 0, () => world.updateSettings(OWNER, GLOBEX, { name: "Globex Shop" }));
  at(61, 9, 20, () => world.updateSettings(HANA, GLOBEX, { name: "Globex" }));

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
  at(74, 23, 0, () =>
    world.issueKey(HANA, GLOBEX, "Nightly reports", { scopes: ["audit:view", "member:read"], lastUsedAt: t.day(1, 3, 2) }),
  );
  for (let daysAgo = 73; daysAgo >= 1; daysAgo--) at(daysAgo, 3, 0, () => world.rotateKey(HANA, GLOBEX, "Nightly reports"));

  // The payments webhook's key, rotated every three hours of the working day.
  at(75, 8, 0, () => world.issueKey(HANA, GLOBEX, "Payments webhook", { scopes: ["billing:view"], lastUsedAt: ago(3 * 60_000) }));
  for (let daysAgo = 74; daysAgo >= 1; daysAgo--) {
    if (!isWeekday(t.day(daysAgo))) continue;
    for (let hour = 8; hour <= 20; hour += 3) at(daysAgo, hour, 30, () => world.rotateKey(HANA, GLOBEX, "Payments webhook"));
  }

  // Stores onboarded with a key each; a store that closes has its key revoked.
  for (let n = 1; n <= 40; n++) {
    const opened = 75 - Math.floor(n * 1.8);
    const label = `store-${String(n).padStart(3, "0")}`;
    const closes = n % 4 !== 0;
    const closed = Math.max(opened - 10, 1);
    // A closed store's key was last used on its last day.
    const lastUsedAt = closes ? t.day(closed, 12, 30) : ago((n * 7 + 3) * 60_000);
    at(opened, 11, 15, () => world.issueKey(n % 3 ? HANA : OWNER, GLOBEX, label, { scopes: ["organization:read"], lastUsedAt }));
    if (closes) at(closed, 15, 40, () => world.revokeKey(HANA, GLOBEX, label));
  }

  // The release pipeline: Gustav's at first, Hana's once she is an admin; a key per release.
  for (let daysAgo = 80; daysAgo >= 1; daysAgo--) {
    if (!isWeekday(t.day(daysAgo))) continue;
    const releases = 4 + Math.floor(random() * 5);
    const by = daysAgo > 76 ? OWNER : HANA;
    for (let n = 1; n <= releases; n++) {
      const start = t.day(daysAgo, 9, 0).getTime() + (n - 1) * 70 * 60_000 + Math.floor(random() * 40) * 60_000;
      const label = `release-${isoDay(t.day(daysAgo))}-${n}`;
      t.plan(new Date(start), () =>
        world.issueKey(by, GLOBEX, label, { scopes: ["organization:read"], lifetimeDays: 1, lastUsedAt: new Date(start + 60_000) }),
      );
      t.plan(new Date(start + (10 + Math.floor(random() * 40)) * 60_000), () => world.revokeKey(by, GLOBEX, label));
    }
  }
}

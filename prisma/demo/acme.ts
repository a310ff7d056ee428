// Acme's 90 days: founded on the Team plan, Enterprise two weeks later; people invited, promoted,
// leaving, removed and one account deleted; a payment that failed and recovered, a cancel and a
// resume; exports; long-lived keys (rotated, expiring soon, expired, revoked) and a deploy
// pipeline that issues a short-lived key per deploy and revokes it, and rotates its own key
// every three working hours. Owner Olivia, admins Adam and Diego do the work.
import { API_KEY_SCOPES } from "../../app/access/api-key-scopes.ts";
import type { DemoWorld } from "./world.ts";

const OWNER = "owner@acme.test";
const ADMIN = "admin@acme.test";
const DIEGO = "diego@acme.test";
const FRANK = "frank@acme.test";
const ACME = "acme";
const HOUR = 60 * 60 * 1000;

const isWeekday = (date: Date) => date.getUTCDay() !== 0 && date.getUTCDay() !== 6;
const isoDay = (date: Date) => date.toISOString().slice(0, 10);

export function planAcme(world: DemoWorld, random: () => number): void {
  const t = world.timeline;
  const at = (daysAgo: number, hour: number, minute: number, run: () => Promise<unknown>) => t.plan(t.day(daysAgo, hour, minute), run);
  const ago = (ms: number) => new Date(t.now.getTime() - ms);
  const tokens = new Map<string, { id: string; token: string }>();
  const invite = (daysAgo: number, hour: number, by: string, email: string, role: "admin" | "member", acceptAfterMinutes?: number) => {
    at(daysAgo, hour, 5, async () => tokens.set(email, await world.invite(by, ACME, email, role)));
    if (acceptAfterMinutes !== undefined)
      t.plan(new Date(t.day(daysAgo, hour, 5).getTime() + acceptAfterMinutes * 60_000), () =>
        world.accept(email, tokens.get(email)!.token),
      );
  };

  // Founding, people, settings.
  at(90, 9, 12, () => world.createOrganization(OWNER, ACME, "Acme Corp"));
  at(90, 9, 20, () => world.checkout(OWNER, ACME, "team"));
  invite(89, 10, OWNER, ADMIN, "admin", 35);
  invite(89, 11, OWNER, "member@acme.test", "member", 22 * 60);
  invite(87, 14, ADMIN, DIEGO, "member", 50);
  invite(86, 9, ADMIN, "priya@acme.test", "member", 15);
  at(84, 16, 40, () => world.updateSettings(OWNER, ACME, { name: "Acme" }));
  at(80, 10, 0, () => world.changeRole(OWNER, ACME, DIEGO, "admin"));
  at(80, 11, 30, () => world.checkout(OWNER, ACME, "enterprise"));
  invite(78, 13, ADMIN, "erin@acme.test", "member", 90);
  invite(76, 9, OWNER, FRANK, "admin", 25);
  invite(75, 15, ADMIN, "contractor@example.com", "member");
  at(74, 9, 45, () => world.cancelInvitation(ADMIN, ACME, tokens.get("contractor@example.com")!.id));
  invite(70, 10, ADMIN, "ivan@acme.test", "member", 26 * 60);
  at(45, 14, 0, () => world.changeRole(OWNER, ACME, "priya@acme.test", "admin"));
  at(32, 17, 10, () => world.leave("erin@acme.test", ACME));
  at(20, 9, 30, () => world.changeRole(OWNER, ACME, "priya@acme.test", "member"));
  at(15, 18, 2, () => world.deleteAccount(FRANK));
  at(10, 11, 0, () => world.removeMember(OWNER, ACME, "ivan@acme.test"));

  // Billing: a failed payment recovered, a cancel taken back.
  at(40, 6, 0, () => world.providerEvent(ACME, "payment_failed"));
  at(38, 6, 0, () => world.providerEvent(ACME, "payment_recovered"));
  const canceled = { from: t.day(25, 16, 20), to: t.day(24, 9, 5) };
  t.plan(canceled.from, () => world.cancelPlan(OWNER, ACME));
  t.plan(canceled.to, () => world.resumePlan(OWNER, ACME));

  // Exports (Enterprise, while the plan is active).
  at(70, 15, 0, () => world.exportLog(OWNER, ACME, "?format=csv"));
  at(60, 11, 0, () => world.exportLog(ADMIN, ACME, "?format=json&action=api_key.revoked"));
  at(50, 10, 30, () => world.exportLog(OWNER, ACME, `?format=csv&from=${isoDay(t.day(80))}&to=${isoDay(t.day(50))}`));
  at(35, 16, 0, () => world.exportLog(ADMIN, ACME, "?format=csv&action=member.role_changed"));
  at(12, 9, 0, () => world.exportLog(OWNER, ACME, `?format=json&actorId=${world.userId(ADMIN)}`));
  at(3, 14, 15, () => world.exportLog(ADMIN, ACME, "?format=csv"));
  // The weekly compliance export, Monday mornings since Enterprise; none while the plan was
  // canceled (exports are paused then: on a Monday that fell inside it, the story's export failed).
  for (let daysAgo = 79; daysAgo >= 1; daysAgo--) {
    const moment = t.day(daysAgo, 8, 45);
    if (moment.getUTCDay() !== 1 || (moment >= canceled.from && moment < canceled.to)) continue;
    const from = isoDay(t.day(daysAgo + 7));
    t.plan(moment, () => world.exportLog(OWNER, ACME, `?format=csv&from=${from}&to=${isoDay(t.day(daysAgo + 1))}`));
  }

  // Audit log streaming (Enterprise): the security team's Splunk, tested, its token replaced,
  // paused over a maintenance window, replayed after an index mix-up, and retired for Datadog,
  // which is set up and paused until its contract is signed. Nothing in the story is live: the
  // demo's destinations are made-up hosts, and a paused stream sends nothing.
  const splunk = { kind: "splunk" as const, url: "https://splunk.acme.example:8088", token: "8c5e1f2a-3b4d-4c6e-9f70-1a2b3c4d5e6f" };
  at(79, 10, 0, () => world.createStream(ADMIN, ACME, { name: "Splunk (SOC)", ...splunk, index: "keyledger" }));
  at(79, 10, 4, () => world.testStream(ADMIN, ACME, "Splunk (SOC)"));
  at(61, 9, 30, () => world.updateStream(DIEGO, ACME, "Splunk (SOC)", { destination: { token: "0f9e8d7c-6b5a-4c3d-9e2f-1a0b9c8d7e6f" } }));
  at(47, 22, 0, () => world.updateStream(ADMIN, ACME, "Splunk (SOC)", { paused: true }));
  at(47, 23, 30, () => world.updateStream(ADMIN, ACME, "Splunk (SOC)", { paused: false }));
  at(33, 11, 0, () =>
    world.updateStream(DIEGO, ACME, "Splunk (SOC)", {
      destination: { index: "security" },
      start: { from: "date", date: isoDay(t.day(40)) },
    }),
  );
  at(9, 15, 0, () =>
    world.createStream(OWNER, ACME, {
      name: "Datadog",
      kind: "datadog",
      url: "https://http-intake.logs.datadoghq.eu",
      apiKey: "3f2b9c1d7e6a5f4b3c2d1e0f9a8b7c6d",
      service: "keyledger",
    }),
  );
  at(9, 15, 20, () => world.updateStream(OWNER, ACME, "Datadog", { paused: true }));
  at(8, 10, 0, () => world.deleteStream(OWNER, ACME, "Splunk (SOC)"));

  // Contractors invited for a project and never taken on: the invitation canceled a few days later.
  const contractors = ["design@studio.example", "qa@testers.example", "sre@oncall.example", "docs@writers.example", "audit@kpmg.example"];
  contractors.forEach((email, n) => {
    const daysAgo = 68 - n * 12;
    invite(daysAgo, 11, n % 2 ? OWNER : ADMIN, email, "member");
    at(daysAgo - 3, 16, 30, () => world.cancelInvitation(ADMIN, ACME, tokens.get(email)!.id));
  });
  // Priya covers the on-call admin role for a week now and then.
  for (const daysAgo of [66, 58]) {
    at(daysAgo, 9, 10, () => world.changeRole(OWNER, ACME, "priya@acme.test", "admin"));
    at(daysAgo - 7, 9, 10, () => world.changeRole(OWNER, ACME, "priya@acme.test", "member"));
  }

  // Long-lived keys, one in every state.
  const all = [...API_KEY_SCOPES];
  at(88, 14, 0, () => world.issueKey(OWNER, ACME, "Production API", { scopes: all, lastUsedAt: ago(2 * 60_000) }));
  at(58, 8, 30, () => world.rotateKey(OWNER, ACME, "Production API"));
  at(28, 8, 30, () => world.rotateKey(OWNER, ACME, "Production API"));
  at(88, 15, 10, () => world.issueKey(ADMIN, ACME, "Legacy integration", { scopes: ["organization:read"], lastUsedAt: t.day(51, 23, 10) }));
  at(50, 10, 0, () => world.revokeKey(ADMIN, ACME, "Legacy integration"));
  at(85, 11, 0, () =>
    world.issueKey(ADMIN, ACME, "Billing worker", {
      scopes: ["billing:view", "organization:read"],
      lifetimeDays: 365,
      lastUsedAt: ago(15 * 60_000),
    }),
  );
  for (let daysAgo = 78; daysAgo >= 1; daysAgo -= 3.5) at(Math.ceil(daysAgo), 7, 0, () => world.rotateKey(ADMIN, ACME, "Billing worker"));
  const staging = Math.ceil((t.now.getTime() - t.day(82, 10, 0).getTime()) / (24 * HOUR)) + 5;
  at(82, 10, 0, () => world.issueKey(ADMIN, ACME, "Staging", { scopes: all, lifetimeDays: staging, lastUsedAt: ago(3 * HOUR) }));
  at(72, 13, 0, () =>
    world.issueKey(OWNER, ACME, "Analytics export", { scopes: ["audit:view"], lifetimeDays: 30, lastUsedAt: t.day(43, 2, 0) }),
  );
  at(35, 9, 40, () => world.revokeKey(ADMIN, ACME, "Analytics export"));
  at(70, 12, 0, () =>
    world.issueKey(FRANK, ACME, "Frank's sandbox", { scopes: ["organization:read", "member:read"], lastUsedAt: t.day(16, 17, 0) }),
  );
  at(14, 9, 0, () => world.revokeKey(ADMIN, ACME, "Frank's sandbox"));
  at(65, 10, 20, () =>
    world.issueKey(ADMIN, ACME, "Partner: Initech", {
      scopes: ["organization:read", "member:read"],
      lifetimeDays: 45,
      lastUsedAt: t.day(20, 8, 0),
    }),
  );
  at(60, 16, 0, () =>
    world.issueKey(DIEGO, ACME, "Mobile app", { scopes: ["organization:read"], lifetimeDays: 180, lastUsedAt: ago(5 * 60_000) }),
  );
  at(30, 16, 0, () => world.rotateKey(DIEGO, ACME, "Mobile app"));
  const relay = Math.ceil((t.now.getTime() - t.day(30, 11, 0).getTime()) / (24 * HOUR)) + 2;
  at(30, 11, 0, () =>
    world.issueKey(OWNER, ACME, "Webhook relay", { scopes: ["organization:read"], lifetimeDays: relay, lastUsedAt: ago(26 * HOUR) }),
  );
  at(5, 15, 30, () => world.issueKey(DIEGO, ACME, "Data warehouse", { scopes: ["audit:view", "billing:view"] }));
  // The relay's secret turns up in a public gist (GitHub's secret scanning reports it); nobody has
  // acted yet, so the keys page shows it reported leaked.
  at(2, 22, 40, () => world.reportLeaked("Webhook relay", { url: "https://gist.github.com/acme-dev/3f1c2b7e9d", source: "content" }));

  planAcmePreviews(world, random);

  // The deploy pipeline (Diego's automation): its own key rotated every three working hours, and one
  // short-lived key per deploy, revoked when the deploy is done.
  at(79, 9, 0, () => world.issueKey(DIEGO, ACME, "CI deploy", { scopes: ["organization:read"], lastUsedAt: ago(40 * 60_000) }));
  for (let daysAgo = 78; daysAgo >= 1; daysAgo--) {
    if (!isWeekday(t.day(daysAgo))) continue;
    for (let hour = 9; hour <= 18; hour += 3) at(daysAgo, hour, 0, () => world.rotateKey(DIEGO, ACME, "CI deploy"));
    const deploys = 5 + Math.floor(random() * 5);
    for (let n = 1; n <= deploys; n++) {
      const start = t.day(daysAgo, 8, 0).getTime() + (n - 1) * 50 * 60_000 + Math.floor(random() * 20) * 60_000;
      const label = `deploy-${isoDay(t.day(daysAgo))}-${n}`;
      const lastUsedAt = new Date(start + 2 * 60_000);
      t.plan(new Date(start), () => world.issueKey(DIEGO, ACME, label, { scopes: ["organization:read"], lifetimeDays: 1, lastUsedAt }));
      t.plan(new Date(start + (8 + Math.floor(random() * 25)) * 60_000), () => world.revokeKey(DIEGO, ACME, label));
    }
  }
}

/** Adam's preview environments: one short-lived key per pull request, revoked when it is merged. */
export function planAcmePreviews(world: DemoWorld, random: () => number): void {
  const t = world.timeline;
  for (let daysAgo = 76; daysAgo >= 1; daysAgo--) {
    if (!isWeekday(t.day(daysAgo))) continue;
    const previews = 3 + Math.floor(random() * 4);
    for (let n = 1; n <= previews; n++) {
      const opened = t.day(daysAgo, 10, 0).getTime() + (n - 1) * 90 * 60_000 + Math.floor(random() * 60) * 60_000;
      const label = `preview-pr-${4100 + Math.floor((76 - daysAgo) * 6 + n)}`;
      const merged = opened + (20 + Math.floor(random() * 200)) * 60_000;
      t.plan(new Date(opened), () =>
        world.issueKey(ADMIN, ACME, label, { scopes: ["organization:read"], lifetimeDays: 7, lastUsedAt: new Date(opened + 5 * 60_000) }),
      );
      t.plan(new Date(Math.min(merged, t.now.getTime() - 60_000)), () => world.revokeKey(ADMIN, ACME, label));
    }
  }
}

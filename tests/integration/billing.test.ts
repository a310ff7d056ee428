// Billing (docs/decisions/0029-billing.md) against PostgreSQL: every transition of the contract
// and its one audit event, written in the same transaction as the change (and nothing for a
// refusal); provider events applied at most once per event id, also when two deliveries race;
// signatures (missing, wrong, stale) refused with nothing written; unknown plans 400; who may read
// and change billing; concurrent checkouts; the export gate through the built app; the page; and
// the plan catalog switch reaching billing.get.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Role } from "~/generated/prisma/enums";
import { startInProcessServer, type InProcessServer } from "../app-server";

// The development provider is active only on the embedded database: this file plays that
// installation (scripts/start.ts sets the flag there); other setups are passed explicitly below.
vi.hoisted(() => {
  process.env.KEYLEDGER_EMBEDDED_DATABASE = "true";
  delete process.env.BILLING_WEBHOOK_SECRET;
});

const { authorizeOrganization } = await import("~/access/organization-access.server");
const billingDomain = await import("~/billing/billing.server");
const { PLANS } = await import("~/plans/catalog");
const { billingSetupFrom } = await import("~/billing/provider.server");
const { signatureHeader, SIGNATURE_HEADER } = await import("~/billing/signature.server");
const { sessionCookieName } = await import("~/auth/cookies.server");
const { pool, prisma } = await import("~/db.server");
const { createOrganizationWith, createUser, signedIn } = await import("../factories");
const { call } = await import("../rpc");

const SECRET = "test-webhook-secret-0123456789abcdef";
const embedded = billingSetupFrom({ embeddedDatabase: true });
const signed = billingSetupFrom({ embeddedDatabase: true, webhookSecret: SECRET });
const external = billingSetupFrom({ embeddedDatabase: false });
const externalSigned = billingSetupFrom({ embeddedDatabase: false, webhookSecret: SECRET });

let server: InProcessServer;
let origin: string;

beforeAll(async () => {
  server = await startInProcessServer();
  origin = server.origin;
});

afterAll(() => server.close());

/** An organization on `plan` with its owner signed in (it active), and optionally more members. */
async function organization(plan = "free") {
  const owner = await createUser();
  const org = await createOrganizationWith([{ userId: owner.id, role: "owner" }], { planId: plan });
  const session = await signedIn(owner.id, org.id);
  return { id: org.id, ownerId: owner.id, token: session.token, auth: session.auth };
}

async function memberWith(organizationId: string, role: Role) {
  const user = await createUser();
  await prisma.membership.create({ data: { organizationId, userId: user.id, role } });
  return { userId: user.id, ...(await signedIn(user.id, organizationId)) };
}

interface EventRow {
  action: string;
  actorKind: string;
  actorId: string;
  targetType: string;
  targetId: string;
  details: unknown;
  idempotencyKey: string | null;
}

async function billingEvents(organizationId: string): Promise<EventRow[]> {
  const { rows } = await pool().query<EventRow>(
    `SELECT action, actor_kind::text AS "actorKind", actor_id AS "actorId", target_type AS "targetType", target_id AS "targetId",
            details, idempotency_key AS "idempotencyKey"
       FROM audit_events WHERE organization_id = $1 AND action LIKE 'billing.%' ORDER BY created_at, id`,
    [organizationId],
  );
  return rows;
}

async function billingRow(organizationId: string) {
  return prisma.organization.findUniqueOrThrow({ where: { id: organizationId }, select: { planId: true, billingState: true } });
}

/** Everything a refused request must leave as it was. */
async function snapshot(organizationId: string) {
  const { rows } = await pool().query<{ n: number }>("SELECT count(*)::int AS n FROM billing_provider_events WHERE organization_id = $1", [
    organizationId,
  ]);
  return { billing: await billingRow(organizationId), events: await billingEvents(organizationId), processed: rows[0]!.n };
}

let eventSeq = 0;
const eventId = () => `evt_${Date.now()}_${++eventSeq}`;

function deliver(
  setup: ReturnType<typeof billingSetupFrom>,
  event: Record<string, unknown>,
  options: { sign?: boolean; timestamp?: number; header?: string } = {},
) {
  const body = JSON.stringify(event);
  const headers = new Headers({ "content-type": "application/json" });
  if (options.header !== undefined) headers.set(SIGNATURE_HEADER, options.header);
  else if (options.sign) headers.set(SIGNATURE_HEADER, signatureHeader(SECRET, body, options.timestamp));
  return billingDomain.receiveProviderEvent(headers, body, setup);
}

const event = (organizationId: string, type: string, id = eventId()) => ({ id, type, organizationId });

async function refusal(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    return error as { code: string; messageKey: string };
  }
  throw new Error("expected a refusal");
}

const system = { actorKind: "system", actorId: "billing-provider", targetType: "organization" };

describe("owners' changes (billing.checkout, billing.cancel, billing.resume)", () => {
  it("checkout changes the plan at once, active, with one billing.plan_changed by the owner", async () => {
    const org = await organization();
    const answer = await call("billing/checkout", org.token, { organizationId: org.id, planId: "team" });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ planId: "team", state: "active", features: { auditExport: false, auditStreaming: false } });
    const up = await call("billing/checkout", org.token, { organizationId: org.id, planId: "enterprise" });
    expect(up.json).toEqual({ planId: "enterprise", state: "active", features: { auditExport: true, auditStreaming: true } });
    expect(await billingRow(org.id)).toEqual({ planId: "enterprise", billingState: "active" });
    expect(await billingEvents(org.id)).toEqual([
      {
        action: "billing.plan_changed",
        actorKind: "user",
        actorId: org.ownerId,
        targetType: "organization",
        targetId: org.id,
        details: { plan: { from: "free", to: "team" } },
        idempotencyKey: null,
      },
      {
        action: "billing.plan_changed",
        actorKind: "user",
        actorId: org.ownerId,
        targetType: "organization",
        targetId: org.id,
        details: { plan: { from: "team", to: "enterprise" } },
        idempotencyKey: null,
      },
    ]);
  });

  it("refuses the current plan (409) and unknown plan ids (400), translated, recording nothing", async () => {
    const org = await organization("team");
    const before = await snapshot(org.id);
    const same = await call("billing/checkout", org.token, { organizationId: org.id, planId: "team" });
    expect(same.status).toBe(409);
    expect(same.json).toMatchObject({ code: "CONFLICT", message: "The organization is already on the Team plan." });
    const de = await call("billing/checkout", org.token, { organizationId: org.id, planId: "team" }, { "accept-language": "de" });
    expect(de.json).toMatchObject({ code: "CONFLICT", message: "Die Organisation hat bereits den Tarif Team." });
    for (const planId of ["platinum", "", "FREE", "x".repeat(65), 7, null, ["team"], { id: "team" }]) {
      const answer = await call("billing/checkout", org.token, { organizationId: org.id, planId });
      expect(answer.status, JSON.stringify(planId)).toBe(400);
      expect(answer.json).toMatchObject({ code: "BAD_REQUEST" });
    }
    const unknown = await call("billing/checkout", org.token, { organizationId: org.id, planId: "platinum" });
    expect((unknown.json.data as { issues: { path: string; message: string }[] }).issues).toEqual([
      { path: "planId", message: "This plan does not exist. Choose Free, Team or Enterprise." },
    ]);
    expect(await snapshot(org.id)).toEqual(before);
  });

  it("cancel → canceled and resume → active, one event each; the wrong moment is a 409 with nothing recorded", async () => {
    const free = await organization();
    const nothing = await call("billing/cancel", free.token, { organizationId: free.id });
    expect(nothing.status).toBe(409);
    expect(nothing.json.message).toBe("The Free plan has no subscription to cancel.");
    expect((await call("billing/resume", free.token, { organizationId: free.id })).status).toBe(409);
    expect(await billingEvents(free.id)).toEqual([]);

    const org = await organization("team");
    expect((await call("billing/resume", org.token, { organizationId: org.id })).json.message).toBe(
      "Only a canceled subscription can be resumed.",
    );
    const canceled = await call("billing/cancel", org.token, { organizationId: org.id });
    expect(canceled.json).toEqual({ planId: "team", state: "canceled", features: { auditExport: false, auditStreaming: false } });
    const again = await call("billing/cancel", org.token, { organizationId: org.id });
    expect(again.status).toBe(409);
    expect(again.json.message).toBe("The subscription is already canceled.");
    const resumed = await call("billing/resume", org.token, { organizationId: org.id });
    expect(resumed.json).toEqual({ planId: "team", state: "active", features: { auditExport: false, auditStreaming: false } });
    expect((await billingEvents(org.id)).map((e) => [e.action, e.actorKind, e.actorId, e.details])).toEqual([
      ["billing.canceled", "user", org.ownerId, { plan: "team", state: { from: "active", to: "canceled" } }],
      ["billing.resumed", "user", org.ownerId, { plan: "team", state: { from: "canceled", to: "active" } }],
    ]);
  });

  it("a checkout from a paused state makes it active, and says so in the event", async () => {
    const org = await organization("team");
    await call("billing/cancel", org.token, { organizationId: org.id });
    const answer = await call("billing/checkout", org.token, { organizationId: org.id, planId: "enterprise" });
    expect(answer.json).toMatchObject({ planId: "enterprise", state: "active" });
    expect((await billingEvents(org.id)).at(-1)!.details).toEqual({
      plan: { from: "team", to: "enterprise" },
      state: { from: "canceled", to: "active" },
    });
  });

  it("two concurrent checkouts act one after the other: the same plan twice gives one change and a 409", async () => {
    const org = await organization();
    const answers = await Promise.all([
      call("billing/checkout", org.token, { organizationId: org.id, planId: "team" }),
      call("billing/checkout", org.token, { organizationId: org.id, planId: "team" }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(await billingEvents(org.id)).toHaveLength(1);

    const other = await organization();
    const both = await Promise.all([
      call("billing/checkout", other.token, { organizationId: other.id, planId: "team" }),
      call("billing/checkout", other.token, { organizationId: other.id, planId: "enterprise" }),
    ]);
    expect(both.map((a) => a.status)).toEqual([200, 200]);
    const [first, second] = (await billingEvents(other.id)).map((e) => e.details as { plan: { from: string; to: string } });
    // Each event's previous plan is the plan the other one left: no two changes from "free".
    expect(first!.plan.from).toBe("free");
    expect(second!.plan.from).toBe(first!.plan.to);
    expect((await billingRow(other.id)).planId).toBe(second!.plan.to);
  });

  it("without a provider (an external database) plan changes say billing is not set up, and change nothing", async () => {
    const org = await organization("team");
    const access = await authorizeOrganization(org.auth, org.id, "billing:manage");
    for (const attempt of [
      billingDomain.checkout(access, "enterprise", external),
      billingDomain.cancelSubscription(access, externalSigned),
      billingDomain.resumeSubscription(access, external),
    ]) {
      expect(await refusal(attempt)).toMatchObject({ code: "CONFLICT", messageKey: "billing.notConfigured" });
    }
    expect(await snapshot(org.id)).toMatchObject({ billing: { planId: "team", billingState: "active" }, events: [] });
  });
});

describe("provider events", () => {
  it("payment_failed: active → past_due → past_due_blocked, then nothing; payment_recovered → active; each change one system event", async () => {
    const org = await organization("enterprise");
    const first = await deliver(embedded, event(org.id, "payment_failed", "evt_fail_1_" + org.id.slice(0, 8)));
    expect(first).toEqual({
      outcome: "applied",
      billing: { planId: "enterprise", state: "past_due", features: { auditExport: true, auditStreaming: true } },
    });
    expect((await deliver(embedded, event(org.id, "payment_failed"))).billing.state).toBe("past_due_blocked");
    expect((await deliver(embedded, event(org.id, "payment_failed"))).outcome).toBe("unchanged");
    expect(await deliver(embedded, event(org.id, "payment_recovered"))).toMatchObject({ outcome: "applied", billing: { state: "active" } });
    expect((await deliver(embedded, event(org.id, "payment_recovered"))).outcome).toBe("unchanged");
    const events = await billingEvents(org.id);
    expect(events.map((e) => [e.action, e.details])).toEqual([
      ["billing.state_changed", { reason: "payment_failed", state: { from: "active", to: "past_due" } }],
      ["billing.state_changed", { reason: "payment_failed", state: { from: "past_due", to: "past_due_blocked" } }],
      ["billing.state_changed", { reason: "payment_recovered", state: { from: "past_due_blocked", to: "active" } }],
    ]);
    for (const e of events) expect(e).toMatchObject({ ...system, targetId: org.id });
    expect(events[0]!.idempotencyKey).toBe(`billing-event:development:evt_fail_1_${org.id.slice(0, 8)}`);
  });

  it("refund and dispute revoke the paid plan (back to Free, active), from any state", async () => {
    const refunded = await organization("enterprise");
    await deliver(embedded, event(refunded.id, "payment_failed"));
    expect(await deliver(embedded, event(refunded.id, "refund"))).toMatchObject({
      outcome: "applied",
      billing: { planId: "free", state: "active", features: { auditExport: false, auditStreaming: false } },
    });
    expect((await billingEvents(refunded.id)).at(-1)).toMatchObject({
      ...system,
      action: "billing.plan_revoked",
      details: { reason: "refund", plan: { from: "enterprise", to: "free" }, state: { from: "past_due", to: "active" } },
    });

    const disputed = await organization("team");
    await call("billing/cancel", disputed.token, { organizationId: disputed.id });
    await deliver(embedded, event(disputed.id, "dispute"));
    const active = await organization("team");
    await deliver(embedded, event(active.id, "dispute"));
    expect(await billingRow(disputed.id)).toEqual({ planId: "free", billingState: "active" });
    expect((await billingEvents(active.id)).map((e) => e.details)).toEqual([{ reason: "dispute", plan: { from: "team", to: "free" } }]);
  });

  it("payment events for a Free or canceled organization are refused (409) with nothing written", async () => {
    const free = await organization();
    const canceled = await organization("team");
    await call("billing/cancel", canceled.token, { organizationId: canceled.id });
    const before = [await snapshot(free.id), await snapshot(canceled.id)];
    for (const type of ["payment_failed", "payment_recovered", "refund", "dispute"]) {
      expect(await refusal(deliver(embedded, event(free.id, type)))).toMatchObject({
        code: "CONFLICT",
        messageKey: "billing.eventNoPaidPlan",
      });
    }
    for (const type of ["payment_failed", "payment_recovered"]) {
      expect(await refusal(deliver(embedded, event(canceled.id, type)))).toMatchObject({
        code: "CONFLICT",
        messageKey: "billing.eventCanceled",
      });
    }
    expect([await snapshot(free.id), await snapshot(canceled.id)]).toEqual(before);
  });

  it("a repeated event id changes and records nothing new and says it was already processed; reused for another event, 409", async () => {
    const org = await organization("team");
    const replayed = event(org.id, "payment_failed");
    expect((await deliver(embedded, replayed)).outcome).toBe("applied");
    const after = await snapshot(org.id);
    expect(await deliver(embedded, replayed)).toEqual({
      outcome: "already_processed",
      billing: { planId: "team", state: "past_due", features: { auditExport: false, auditStreaming: false } },
    });
    expect(await snapshot(org.id)).toEqual(after);
    expect(await refusal(deliver(embedded, { ...replayed, type: "refund" }))).toMatchObject({
      code: "CONFLICT",
      messageKey: "billing.eventIdReused",
    });
    const other = await organization("team");
    expect(await refusal(deliver(embedded, { ...replayed, organizationId: other.id }))).toMatchObject({
      messageKey: "billing.eventIdReused",
    });
    expect(await snapshot(org.id)).toEqual(after);
    expect((await snapshot(other.id)).events).toEqual([]);
  });

  it("two deliveries of the same event at the same moment apply it once", async () => {
    for (let round = 0; round < 5; round++) {
      const org = await organization("enterprise");
      const same = event(org.id, "payment_failed");
      const outcomes = await Promise.all([deliver(embedded, same), deliver(embedded, same), deliver(embedded, same)]);
      expect(outcomes.map((o) => o.outcome).sort()).toEqual(["already_processed", "already_processed", "applied"]);
      expect(await billingEvents(org.id)).toHaveLength(1);
      expect((await billingRow(org.id)).billingState).toBe("past_due");
    }
  });

  it("with a secret configured, unsigned, forged and stale deliveries are refused (401) and write nothing", async () => {
    const org = await organization("team");
    const before = await snapshot(org.id);
    const e = event(org.id, "payment_failed");
    const body = JSON.stringify(e);
    const now = Math.floor(Date.now() / 1000);
    const cases: [Promise<unknown>, string][] = [
      [deliver(signed, e), "billing.eventUnsigned"],
      [deliver(signed, e, { header: "" }), "billing.eventUnsigned"],
      [deliver(signed, e, { header: "garbage" }), "billing.eventBadSignature"],
      [deliver(signed, e, { header: `t=${now},v1=${"0".repeat(64)}` }), "billing.eventBadSignature"],
      [deliver(signed, e, { header: signatureHeader("another-secret-of-enough-length-123456", body, now) }), "billing.eventBadSignature"],
      // Signed for another body (the organization changed on the way).
      [deliver(signed, e, { header: signatureHeader(SECRET, JSON.stringify({ ...e, type: "refund" }), now) }), "billing.eventBadSignature"],
      // Well outside the 300 s window on both sides, however slowly this loaded machine gets to the check.
      [deliver(signed, e, { sign: true, timestamp: now - 400 }), "billing.eventExpiredSignature"],
      [deliver(signed, e, { sign: true, timestamp: now + 400 }), "billing.eventExpiredSignature"],
      [deliver(external, e), "billing.eventsNotConfigured"],
      [deliver(external, e, { sign: true }), "billing.eventsNotConfigured"],
    ];
    for (const [attempt, messageKey] of cases) expect(await refusal(attempt)).toMatchObject({ code: "UNAUTHORIZED", messageKey });
    expect(await snapshot(org.id)).toEqual(before);
    // Correctly signed, within the window (also on an external database): applied.
    expect((await deliver(signed, e, { sign: true, timestamp: now - 240 })).outcome).toBe("applied");
    expect((await deliver(externalSigned, event(org.id, "payment_recovered"), { sign: true })).outcome).toBe("applied");
  });

  it("bodies that are not one event are 400, unknown organizations 404; nothing is written", async () => {
    const org = await organization("team");
    const before = await snapshot(org.id);
    const headers = new Headers({ "content-type": "application/json" });
    const raw = (body: string) => billingDomain.receiveProviderEvent(headers, body, embedded);
    const bad: [string, string][] = [
      ["{not json", "invalidJson"],
      ["", "invalidJson"],
      ["[]", "billing.eventInvalid"],
      ["null", "billing.eventInvalid"],
      ['"payment_failed"', "billing.eventInvalid"],
      [JSON.stringify({ id: "e1", type: "payment_failed" }), "billing.eventInvalid"],
      [JSON.stringify({ ...event(org.id, "payment_failed"), extra: 1 }), "billing.eventInvalid"],
      [JSON.stringify(event(org.id, "subscription_created")), "billing.eventTypeUnknown"],
      [JSON.stringify(event(org.id, "payment_failed", "has spaces")), "billing.eventIdInvalid"],
      [JSON.stringify(event(org.id, "payment_failed", "x".repeat(129))), "billing.eventIdInvalid"],
      [JSON.stringify({ id: null, type: null, organizationId: null }), "billing.eventInvalid"],
    ];
    for (const [body, messageKey] of bad) expect(await refusal(raw(body)), body).toMatchObject({ code: "BAD_REQUEST", messageKey });
    for (const organizationId of ["00000000-0000-4000-8000-000000000000", "not-a-uuid"]) {
      expect(await refusal(raw(JSON.stringify(event(organizationId, "payment_failed"))))).toMatchObject({ code: "NOT_FOUND" });
    }
    expect(await snapshot(org.id)).toEqual(before);
  });

  it("deleting the organization takes its processed events with it", async () => {
    const org = await organization("team");
    await deliver(embedded, event(org.id, "payment_failed"));
    await prisma.organization.delete({ where: { id: org.id } });
    const { rows } = await pool().query<{ n: number }>(
      "SELECT count(*)::int AS n FROM billing_provider_events WHERE organization_id = $1",
      [org.id],
    );
    expect(rows[0]!.n).toBe(0);
  });
});

describe("POST /api/billing/provider-events over HTTP", () => {
  const endpoint = () => `${origin}/api/billing/provider-events`;
  const post = (body: string, headers: Record<string, string> = { "content-type": "application/json" }) =>
    fetch(endpoint(), { method: "POST", headers, body });

  it("applies an unsigned development event (embedded database), then answers a replay 200 as already processed", async () => {
    const org = await organization("team");
    const body = JSON.stringify(event(org.id, "payment_failed"));
    const first = await post(body);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({
      outcome: "applied",
      message: "The event was applied.",
      billing: { planId: "team", state: "past_due", features: { auditExport: false, auditStreaming: false } },
    });
    const replay = await post(body, { "content-type": "application/json", "accept-language": "de" });
    expect(replay.status).toBe(200);
    expect(await replay.json()).toMatchObject({
      outcome: "already_processed",
      message: "Dieses Ereignis wurde bereits verarbeitet; nichts hat sich geändert.",
    });
    expect(await billingEvents(org.id)).toHaveLength(1);
  });

  it("answers other methods 405 with Allow, other content types 415, bad bodies 400 and unknown organizations 404, translated", async () => {
    const get = await fetch(endpoint());
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    expect(((await get.json()) as { message: string }).message).toBe("This method is not allowed here.");
    expect((await fetch(endpoint(), { method: "PUT", body: "{}" })).status).toBe(405);
    expect((await post("{}", { "content-type": "text/plain" })).status).toBe(415);
    expect((await post("{}", {})).status).toBe(415);
    const notJson = await post("{nope", { "content-type": "application/json", "accept-language": "de" });
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toEqual({ code: "BAD_REQUEST", message: "Der Inhalt der Anfrage ist kein gültiges JSON." });
    const unknownType = await post(JSON.stringify({ id: "e", type: "upgrade", organizationId: "00000000-0000-4000-8000-000000000000" }));
    expect(unknownType.status).toBe(400);
    const missing = await post(JSON.stringify(event("00000000-0000-4000-8000-000000000000", "refund")));
    expect(missing.status).toBe(404);
    const free = await organization();
    const conflict = await post(JSON.stringify(event(free.id, "payment_failed")));
    expect(conflict.status).toBe(409);
    expect(await conflict.json()).toEqual({ code: "CONFLICT", message: "The organization has no paid plan for this event to apply to." });
    expect(await billingEvents(free.id)).toEqual([]);
  });

  it("ignores a session cookie: the owner's browser cannot post events for them", async () => {
    const org = await organization("team");
    const crossSite = await fetch(endpoint(), {
      method: "POST",
      headers: { "content-type": "application/json", cookie: `${sessionCookieName()}=${org.token}`, origin: "https://evil.example" },
      body: JSON.stringify(event(org.id, "refund")),
    });
    expect(crossSite.status).toBe(403);
    expect(await billingRow(org.id)).toEqual({ planId: "team", billingState: "active" });
  });
});

describe("who may read and change billing", () => {
  it("billing.get for owners and admins; changes for owners only; members, outsiders, unknown and other organizations refused", async () => {
    const org = await organization("team");
    const admin = await memberWith(org.id, "admin");
    const member = await memberWith(org.id, "member");
    const other = await organization("enterprise");
    const unknown = "00000000-0000-4000-8000-000000000000";

    const get = (token: string, organizationId = org.id) => call("billing/get", token, { organizationId });
    expect((await get(org.token)).json).toEqual({
      planId: "team",
      state: "active",
      features: { auditExport: false, auditStreaming: false },
    });
    expect((await get(admin.token)).status).toBe(200);
    expect((await get(member.token)).status).toBe(403);
    expect((await get(other.token)).status).toBe(403);
    expect((await get(org.token, other.id)).status).toBe(403);
    expect((await get(org.token, unknown)).status).toBe(404);

    const changes: [string, Record<string, unknown>][] = [
      ["billing/checkout", { planId: "enterprise" }],
      ["billing/cancel", {}],
      ["billing/resume", {}],
    ];
    for (const [path, input] of changes) {
      for (const token of [admin.token, member.token, other.token]) {
        const answer = await call(path, token, { organizationId: org.id, ...input });
        expect(answer.status, path).toBe(403);
        expect(answer.json).toMatchObject({ code: "FORBIDDEN" });
      }
      expect((await call(path, org.token, { organizationId: unknown, ...input })).status).toBe(404);
      expect((await call(path, org.token, { organizationId: org.id, ...input }, { "sec-fetch-site": "cross-site" })).status).toBe(403);
      expect((await call(path, org.token, { organizationId: org.id, ...input, extra: true })).status).toBe(400);
    }
    const unauthenticated = await call("billing/get", "forged", { organizationId: org.id });
    expect(unauthenticated.status).toBe(401);
    expect(await billingEvents(org.id)).toEqual([]);
    expect(await billingRow(org.id)).toEqual({ planId: "team", billingState: "active" });
  });
});

describe("the export gate", () => {
  it("pauses export in past_due_blocked and canceled (409) and restores it when active again; past_due still exports", async () => {
    const org = await organization("enterprise");
    const exportStatus = async () => {
      await pool().query("DELETE FROM rate_limits");
      const response = await fetch(`${origin}/api/organizations/${org.id}/audit-log/export?format=json`, {
        headers: { cookie: `${sessionCookieName()}=${org.token}` },
      });
      await response.arrayBuffer();
      return response.status;
    };
    expect(await exportStatus()).toBe(200);
    await deliver(embedded, event(org.id, "payment_failed"));
    expect(await exportStatus()).toBe(200);
    await deliver(embedded, event(org.id, "payment_failed"));
    expect((await billingRow(org.id)).billingState).toBe("past_due_blocked");
    expect(await exportStatus()).toBe(409);
    await deliver(embedded, event(org.id, "payment_recovered"));
    expect(await exportStatus()).toBe(200);
    await call("billing/cancel", org.token, { organizationId: org.id });
    expect(await exportStatus()).toBe(409);
    await call("billing/resume", org.token, { organizationId: org.id });
    expect(await exportStatus()).toBe(200);
  });

  it("billing.get's features follow the plan catalog: turning auditExport on for Team needs no other change", async () => {
    const org = await organization("team");
    expect((await call("billing/get", org.token, { organizationId: org.id })).json).toMatchObject({ features: { auditExport: false } });
    const flags = PLANS.team.flags as { auditExport: boolean };
    flags.auditExport = true;
    try {
      expect((await call("billing/get", org.token, { organizationId: org.id })).json).toMatchObject({
        features: { auditExport: true, auditStreaming: false },
      });
    } finally {
      flags.auditExport = false;
    }
  });
});

describe("the billing page", () => {
  const page = async (token: string, query = "") => {
    const response = await fetch(`${origin}/dashboard/organization-settings/billing${query}`, {
      headers: { cookie: `${sessionCookieName()}=${token}` },
      redirect: "manual",
    });
    return { status: response.status, html: await response.text() };
  };

  it("shows owners the plan, the state and what it means, and what each plan includes; admins read-only; members 403; in both languages", async () => {
    const org = await organization("team");
    await deliver(embedded, event(org.id, "payment_failed"));
    await deliver(embedded, event(org.id, "payment_failed"));
    const owner = await page(org.token);
    expect(owner.status).toBe(200);
    expect(owner.html).toContain('data-state="past_due_blocked"');
    expect(owner.html).toContain("Paid features such as audit log export are paused until a payment goes through.");
    expect(owner.html).toContain("Switch to Enterprise");
    expect(owner.html).toMatch(/data-plan="enterprise"[\s\S]*?data-feature="auditExport" data-included="true"/);
    expect(owner.html).toMatch(/data-plan="team"[\s\S]*?data-feature="auditExport" data-included="false"/);
    expect(owner.html).toContain("Cancel subscription");
    const german = await page(org.token, "?lng=de");
    expect(german.html).toContain("Zahlung überfällig, ausgesetzt");
    expect(german.html).toContain("Zu Enterprise wechseln");

    const admin = await memberWith(org.id, "admin");
    const adminPage = await page(admin.token);
    expect(adminPage.status).toBe(200);
    expect(adminPage.html).toContain("Only owners can change the plan or the subscription.");
    expect(adminPage.html).not.toContain("Switch to Enterprise");
    expect(adminPage.html).not.toContain("Cancel subscription");
    const member = await memberWith(org.id, "member");
    expect((await page(member.token)).status).toBe(403);
  });

  it("changes the plan without JavaScript: the confirm view, a form post, a redirect with a notice, one event", async () => {
    const org = await organization();
    const confirm = await page(org.token, "?confirm=checkout&plan=enterprise");
    expect(confirm.html).toContain('data-testid="confirm-panel"');
    expect(confirm.html).toContain("Switch to the Enterprise plan?");
    const posted = await fetch(`${origin}/dashboard/organization-settings/billing`, {
      method: "POST",
      headers: {
        cookie: `${sessionCookieName()}=${org.token}`,
        "content-type": "application/x-www-form-urlencoded",
        origin,
        "sec-fetch-site": "same-origin",
      },
      body: "intent=checkout&planId=enterprise",
      redirect: "manual",
    });
    expect(posted.status).toBe(302);
    expect(posted.headers.get("location")).toBe("/dashboard/organization-settings/billing?done=checkout");
    expect((await page(org.token, "?done=checkout")).html).toContain("The organization is now on the Enterprise plan.");
    expect(await billingEvents(org.id)).toHaveLength(1);

    const bad = await fetch(`${origin}/dashboard/organization-settings/billing`, {
      method: "POST",
      headers: { cookie: `${sessionCookieName()}=${org.token}`, "content-type": "application/x-www-form-urlencoded", origin },
      body: "intent=checkout&planId=platinum",
      redirect: "manual",
    });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("This plan does not exist.");
    expect(await billingEvents(org.id)).toHaveLength(1);
  });

  it("the audit log page explains a billing block and links owners to the billing page", async () => {
    const org = await organization("enterprise");
    await call("billing/cancel", org.token, { organizationId: org.id });
    const response = await fetch(`${origin}/dashboard/organization-settings/audit-log`, {
      headers: { cookie: `${sessionCookieName()}=${org.token}` },
    });
    const html = await response.text();
    expect(html).toContain("Export is paused while the organization&#x27;s billing needs attention.");
    expect(html).toContain('href="/dashboard/organization-settings/billing"');
  });
});

describe("the billing_state column", () => {
  it("takes only the contract's states", async () => {
    const org = await organization();
    // The column's type is the BillingState enum (it was text with a CHECK until issue 27).
    await expect(pool().query("UPDATE organizations SET billing_state = 'ok' WHERE id = $1", [org.id])).rejects.toThrow(
      /invalid input value for enum "BillingState"/,
    );
    const { rows } = await pool().query<{ d: string }>(
      "SELECT column_default AS d FROM information_schema.columns WHERE table_name = 'organizations' AND column_name = 'billing_state'",
    );
    expect(rows[0]!.d).toContain("active");
  });
});

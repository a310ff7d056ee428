// The audit recording core: typed and validated input, same-transaction writes, idempotency,
// correlation ids, and the database's refusal to change or delete history.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { presentDetails } from "~/audit/ui/detail-presentation";
import { isSafeCorrelationId } from "~/lib/correlation-id";
import { authorizeOrganization } from "~/access/organization-access.server";
import { InvalidAuditEventError, recordAs, recordAuditEvent, type AuditEventInput } from "~/audit/record.server";
import { pool, prisma } from "~/db.server";
import { isDomainError } from "~/lib/domain-error";
import { createOrganizationWith, createUser, signedIn } from "../factories";

async function newOrganization() {
  const user = await createUser();
  const organization = await createOrganizationWith([{ userId: user.id, role: "owner" }]);
  return { user, organization };
}

function keyIssued(organizationId: string, actorId: string, overrides: Partial<AuditEventInput> = {}): AuditEventInput {
  return {
    organizationId,
    action: "api_key.issued",
    actor: { kind: "user", id: actorId },
    target: { type: "api_key", id: randomUUID() },
    details: { name: "CI", scopes: ["audit:view"], expiresAt: null },
    ...overrides,
  } as AuditEventInput;
}

const eventsOf = (organizationId: string) => prisma.auditEvent.count({ where: { organizationId } });

describe("recordAuditEvent", () => {
  it("writes the event inside the caller's transaction, with a UUID v7 id", async () => {
    const { user, organization } = await newOrganization();
    const { id, recorded } = await prisma.$transaction((tx) =>
      recordAuditEvent(tx, keyIssued(organization.id, user.id, { correlationId: "req-123" })),
    );
    expect(recorded).toBe(true);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const row = await prisma.auditEvent.findUniqueOrThrow({ where: { organizationId_id: { organizationId: organization.id, id } } });
    expect(row).toMatchObject({
      organizationId: organization.id,
      action: "api_key.issued",
      actorKind: "user",
      actorId: user.id,
      targetType: "api_key",
      details: { name: "CI", scopes: ["audit:view"], expiresAt: null },
      correlationId: "req-123",
      idempotencyKey: null,
    });
    expect(row.contentHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("rejects a payload that does not match the catalog, at compile time and at runtime", async () => {
    const { user, organization } = await newOrganization();
    const wrongPayloads = [
      // Extra members are not allowed: details are strict.
      () =>
        recordAuditEvent(prismaTxPlaceholder, {
          organizationId: organization.id,
          action: "api_key.revoked",
          actor: { kind: "user", id: user.id },
          target: { type: "api_key", id: randomUUID() },
          // @ts-expect-error `secret` is not an allowed detail of api_key.revoked
          details: { name: "CI", secret: "sk_leak" },
        }),
      () =>
        recordAuditEvent(prismaTxPlaceholder, {
          organizationId: organization.id,
          action: "member.role_changed",
          actor: { kind: "user", id: user.id },
          target: { type: "user", id: user.id },
          // @ts-expect-error `superuser` is not a role
          details: { from: "member", to: "superuser" },
        }),
      () =>
        // @ts-expect-error an invitation event targets an invitation, not an api_key
        recordAuditEvent(prismaTxPlaceholder, {
          organizationId: organization.id,
          action: "invitation.canceled",
          actor: { kind: "user", id: user.id },
          target: { type: "api_key", id: randomUUID() },
          details: {},
        }),
      () =>
        recordAuditEvent(prismaTxPlaceholder, {
          organizationId: organization.id,
          // @ts-expect-error not an action of the catalog
          action: "api_key.deleted",
          actor: { kind: "user", id: user.id },
          target: { type: "api_key", id: randomUUID() },
          details: {},
        }),
      () =>
        recordAuditEvent(prismaTxPlaceholder, {
          organizationId: organization.id,
          action: "audit.exported",
          // @ts-expect-error not an actor kind
          actor: { kind: "robot", id: user.id },
          target: { type: "organization", id: organization.id },
          details: { format: "csv", filters: {} },
        }),
    ];
    for (const attempt of wrongPayloads) {
      await expect(attempt()).rejects.toBeInstanceOf(InvalidAuditEventError);
    }
    expect(await eventsOf(organization.id)).toBe(0);
  });

  it("recordAs(access) records in the access's organization, as its user, and types the payload the same way", async () => {
    const { user, organization } = await newOrganization();
    const access = await authorizeOrganization((await signedIn(user.id, organization.id)).auth, organization.id);
    const record = recordAs(access);
    const keyId = randomUUID();
    const { id } = await prisma.$transaction((tx) =>
      record(tx, { action: "api_key.revoked", target: { type: "api_key", id: keyId }, details: { name: "CI" } }),
    );
    expect(
      await prisma.auditEvent.findUniqueOrThrow({ where: { organizationId_id: { organizationId: organization.id, id } } }),
    ).toMatchObject({
      organizationId: organization.id,
      actorKind: "user",
      actorId: user.id,
      targetId: keyId,
    });
    await expect(
      record(prismaTxPlaceholder, {
        action: "api_key.revoked",
        target: { type: "api_key", id: keyId },
        // @ts-expect-error `secret` is not an allowed detail of api_key.revoked
        details: { name: "CI", secret: "sk_leak" },
      }),
    ).rejects.toBeInstanceOf(InvalidAuditEventError);
    const elsewhere = () =>
      record(prismaTxPlaceholder, {
        // @ts-expect-error the organization is the access's, never the caller's to name
        organizationId: randomUUID(),
        action: "api_key.revoked",
        target: { type: "api_key", id: keyId },
        details: { name: "CI" },
      });
    void elsewhere;
  });

  it("an idempotency key reused with the same contents records nothing new", async () => {
    const { user, organization } = await newOrganization();
    const input = keyIssued(organization.id, user.id, { idempotencyKey: "invite:abc:sent" });
    const first = await prisma.$transaction((tx) => recordAuditEvent(tx, input));
    const second = await prisma.$transaction((tx) => recordAuditEvent(tx, { ...input, correlationId: "retry-2" }));
    expect(first.recorded).toBe(true);
    expect(second).toEqual({ id: first.id, recorded: false });
    expect(await eventsOf(organization.id)).toBe(1);
  });

  it("an idempotency key reused with different contents throws and rolls the transaction back", async () => {
    const { user, organization } = await newOrganization();
    const input = keyIssued(organization.id, user.id, { idempotencyKey: "op-1" });
    await prisma.$transaction((tx) => recordAuditEvent(tx, input));
    const attempt = prisma.$transaction(async (tx) => {
      await tx.organization.update({ where: { id: organization.id }, data: { name: "Changed in the failed transaction" } });
      await recordAuditEvent(tx, { ...input, details: { name: "Other", scopes: ["audit:view"], expiresAt: null } } as AuditEventInput);
    });
    await expect(attempt).rejects.toSatisfy(
      (e) => isDomainError(e) && e.code === "CONFLICT" && e.messageKey === "audit.idempotencyKeyReused",
    );
    expect((await prisma.organization.findUniqueOrThrow({ where: { id: organization.id } })).name).toBe(organization.name);
    expect(await eventsOf(organization.id)).toBe(1);
  });

  it("the same idempotency key in another organization is a different event", async () => {
    const a = await newOrganization();
    const b = await newOrganization();
    await prisma.$transaction((tx) => recordAuditEvent(tx, keyIssued(a.organization.id, a.user.id, { idempotencyKey: "k" })));
    const other = await prisma.$transaction((tx) => recordAuditEvent(tx, keyIssued(b.organization.id, b.user.id, { idempotencyKey: "k" })));
    expect(other.recorded).toBe(true);
  });

  it("accepts non-secret correlation ids and refuses anything that looks like a credential", async () => {
    for (const ok of ["req-123", randomUUID(), "01HZX3J5M2Q8W6V4T9R7P1N0KD", "4bf92f3577b34da6a3ce929d0e0e4736", "trace:abc.def_1"]) {
      expect(isSafeCorrelationId(ok), ok).toBe(true);
    }
    const sessionToken = "abcdefghijklmnopqrstuvwxyz234567";
    const refused = [
      "",
      sessionToken,
      `req-${sessionToken}`,
      "sk_" + "A".repeat(49),
      "prefix-sk_abc",
      "x".repeat(129),
      "a".repeat(33),
      "has space",
      "Bearer abc",
      "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ.sig",
      "ünïcode",
    ];
    for (const bad of refused) expect(isSafeCorrelationId(bad), bad).toBe(false);
    const { user, organization } = await newOrganization();
    await expect(
      prisma.$transaction((tx) => recordAuditEvent(tx, keyIssued(organization.id, user.id, { correlationId: sessionToken }))),
    ).rejects.toSatisfy((e) => isDomainError(e) && e.code === "BAD_REQUEST");
    expect(await eventsOf(organization.id)).toBe(0);
  });
});

describe("audit_events in the database", () => {
  async function withOneEvent() {
    const { user, organization } = await newOrganization();
    const { id } = await prisma.$transaction((tx) => recordAuditEvent(tx, keyIssued(organization.id, user.id)));
    return { user, organization, id };
  }

  it("refuses UPDATE, DELETE and TRUNCATE from the application (its role has no such privilege)", async () => {
    const { organization, id } = await withOneEvent();
    await expect(
      prisma.auditEvent.update({
        where: { organizationId_id: { organizationId: organization.id, id } },
        data: { action: "api_key.revoked" },
      }),
    ).rejects.toThrow(/permission denied for table audit_events/);
    await expect(prisma.auditEvent.delete({ where: { organizationId_id: { organizationId: organization.id, id } } })).rejects.toThrow(
      /permission denied for table audit_events/,
    );
    await expect(prisma.auditEvent.deleteMany({ where: { organizationId: organization.id } })).rejects.toThrow(
      /permission denied for table audit_events/,
    );
    await expect(pool().query("UPDATE audit_events SET details = '{}' WHERE id = $1", [id])).rejects.toThrow(
      /permission denied for table audit_events/,
    );
    await expect(pool().query("DELETE FROM audit_events WHERE id = $1", [id])).rejects.toThrow(/permission denied for table audit_events/);
    await expect(pool().query("TRUNCATE audit_events")).rejects.toThrow(/permission denied for table audit_events/);
    const row = await prisma.auditEvent.findUniqueOrThrow({ where: { organizationId_id: { organizationId: organization.id, id } } });
    expect(row.action).toBe("api_key.issued");
  });

  it("still lets an organization's deletion cascade to its events", async () => {
    const { organization, id } = await withOneEvent();
    const survivor = await withOneEvent();
    await prisma.organization.delete({ where: { id: organization.id } });
    expect(await prisma.auditEvent.findUnique({ where: { organizationId_id: { organizationId: organization.id, id } } })).toBeNull();
    expect(
      await prisma.auditEvent.findUnique({ where: { organizationId_id: { organizationId: survivor.organization.id, id: survivor.id } } }),
    ).not.toBeNull();
  });
});

describe("presentDetails", () => {
  it("gives label keys and typed values, and falls back to JSON for unknown actions", () => {
    expect(presentDetails("api_key.issued", { name: "CI", scopes: ["audit:view"], expiresAt: "2027-01-31T23:59:59.999Z" })).toEqual([
      { field: "name", labelKey: "audit:details.name", value: { kind: "text", value: "CI" } },
      { field: "scopes", labelKey: "audit:details.scopes", value: { kind: "list", value: ["audit:view"] } },
      { field: "expiresAt", labelKey: "audit:details.expiresAt", value: { kind: "datetime", value: "2027-01-31T23:59:59.999Z" } },
    ]);
    // A role change is one row, previous role first, whatever order JSONB returns the keys in.
    expect(presentDetails("member.role_changed", { to: "admin", from: "member", automatic: true })).toEqual([
      { field: "role", labelKey: "audit:details.role", value: { kind: "change", from: "member", to: "admin" } },
      { field: "automatic", labelKey: "audit:details.automatic", value: { kind: "text", value: "true" } },
    ]);
    // Rows follow the catalog's order of fields, not the stored order.
    expect(presentDetails("api_key.rotated", { prefix: { from: "sk_AAAAAAAA", to: "sk_BBBBBBBB" }, name: "CI" })).toEqual([
      { field: "name", labelKey: "audit:details.name", value: { kind: "text", value: "CI" } },
      { field: "prefix", labelKey: "audit:details.prefix", value: { kind: "change", from: "sk_AAAAAAAA", to: "sk_BBBBBBBB" } },
    ]);
    // A rotation recorded before prefixes were kept still reads.
    expect(presentDetails("api_key.rotated", { name: "CI" })).toEqual([
      { field: "name", labelKey: "audit:details.name", value: { kind: "text", value: "CI" } },
    ]);
    expect(presentDetails("organization.settings_changed", { name: { from: "A", to: "B" } })[0]!.value).toEqual({
      kind: "change",
      from: "A",
      to: "B",
    });
    // The export's filters are named values, also when they are exactly a date range.
    expect(presentDetails("audit.exported", { format: "csv", filters: { from: "2026-01-01", to: "2026-01-31" } })[1]!.value).toEqual({
      kind: "named",
      value: [
        { field: "from", labelKey: "audit:details.from", value: "2026-01-01" },
        { field: "to", labelKey: "audit:details.to", value: "2026-01-31" },
      ],
    });
    expect(presentDetails("audit.exported", { format: "json", filters: {} })[1]!.value).toEqual({ kind: "named", value: [] });
    expect(presentDetails("legacy.thing", { a: 1 })).toEqual([
      { field: "details", labelKey: "audit:details.raw", value: { kind: "json", value: '{"a":1}' } },
    ]);
  });
});

// recordAuditEvent validates before it touches the transaction, so the type tests above can
// run without opening one.
const prismaTxPlaceholder = undefined as unknown as Parameters<typeof recordAuditEvent>[0];

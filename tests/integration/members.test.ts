// Member rules on real PostgreSQL: role changes, removal and leaving, the owner invariant, what
// admins may do, the events they record (only for real changes), races over separate connections,
// and ids of other organizations.
import { describe, expect, it } from "vitest";
import { authorizeOrganization } from "~/access/organization-access.server";
import { prisma } from "~/db.server";
import type { Role } from "~/generated/prisma/enums";
import { leaveOrganization, listMembers, removeMember, updateMemberRole } from "~/organizations/members.server";
import { createOrganizationWith, createUser, signedIn } from "../factories";
import { call } from "../rpc";
import { failure } from "../failure";
import { queryOnce } from "../../scripts/lib/pg-client.ts";

async function team(roles: Role[]) {
  const users = await Promise.all(roles.map((_, i) => createUser({ name: `Person ${i}` })));
  const org = await createOrganizationWith(users.map((u, i) => ({ userId: u.id, role: roles[i]! })));
  const sessions = await Promise.all(users.map((u) => signedIn(u.id, org.id)));
  const manager = (i: number) => authorizeOrganization(sessions[i]!.auth, org.id, "member:manage");
  const roleOf = async (i: number) =>
    (await prisma.membership.findUnique({ where: { organizationId_userId: { organizationId: org.id, userId: users[i]!.id } } }))?.role;
  return { org, users, sessions, manager, roleOf };
}

const eventsOf = (organizationId: string) => prisma.auditEvent.findMany({ where: { organizationId }, orderBy: { id: "asc" } });

describe("changing roles", () => {
  it("records member.role_changed with the previous and new role, and nothing for the same role", async () => {
    const { org, users, manager, roleOf } = await team(["owner", "member"]);
    const view = await updateMemberRole(await manager(0), users[1]!.id, "admin");
    expect(view).toMatchObject({ userId: users[1]!.id, role: "admin" });
    await updateMemberRole(await manager(0), users[1]!.id, "admin");
    await updateMemberRole(await manager(0), users[1]!.id, "member");
    expect(await roleOf(1)).toBe("member");
    const events = await eventsOf(org.id);
    expect(events.map((e) => [e.action, e.targetType, e.targetId, e.actorId, e.details])).toEqual([
      ["member.role_changed", "user", users[1]!.id, users[0]!.id, { from: "member", to: "admin" }],
      ["member.role_changed", "user", users[1]!.id, users[0]!.id, { from: "admin", to: "member" }],
    ]);
  });

  it("keeps an owner: the last owner cannot be demoted, a second owner can", async () => {
    const { org, users, manager, roleOf } = await team(["owner", "owner"]);
    await updateMemberRole(await manager(0), users[1]!.id, "admin");
    expect(await failure(updateMemberRole(await manager(0), users[0]!.id, "admin"))).toMatchObject({
      code: "CONFLICT",
      messageKey: "member.lastOwner",
    });
    expect(await roleOf(0)).toBe("owner");
    expect(await eventsOf(org.id)).toHaveLength(1);
  });

  it("lets only owners make, demote or remove owners; admins manage admins and members", async () => {
    const { org, users, manager, roleOf } = await team(["owner", "admin", "admin", "member"]);
    expect(await failure(updateMemberRole(await manager(1), users[3]!.id, "owner"))).toMatchObject({ messageKey: "member.ownerOnly" });
    expect(await failure(updateMemberRole(await manager(1), users[0]!.id, "member"))).toMatchObject({ messageKey: "member.ownerOnly" });
    expect(await failure(removeMember(await manager(1), users[0]!.id))).toMatchObject({ messageKey: "member.ownerOnly" });
    expect(await eventsOf(org.id)).toHaveLength(0);
    await updateMemberRole(await manager(1), users[3]!.id, "admin");
    await updateMemberRole(await manager(1), users[2]!.id, "member");
    await removeMember(await manager(1), users[2]!.id);
    expect([await roleOf(3), await roleOf(2)]).toEqual(["admin", undefined]);
    await updateMemberRole(await manager(0), users[3]!.id, "owner");
    expect(await roleOf(3)).toBe("owner");
  });

  it("members manage nothing (403 before any work), through the procedures too", async () => {
    const { org, users, sessions } = await team(["owner", "member"]);
    await expect(authorizeOrganization(sessions[1]!.auth, org.id, "member:manage")).rejects.toMatchObject({ code: "FORBIDDEN" });
    const rpc = await call("organization/updateMemberRole", sessions[1]!.token, {
      organizationId: org.id,
      userId: users[0]!.id,
      role: "member",
    });
    expect(rpc.status).toBe(403);
    expect((await call("organization/removeMember", sessions[1]!.token, { organizationId: org.id, userId: users[0]!.id })).status).toBe(
      403,
    );
    expect(await eventsOf(org.id)).toHaveLength(0);
  });

  it("a caller demoted since the access check is refused under the lock", async () => {
    const { org, users, manager } = await team(["owner", "admin", "member"]);
    const stale = await manager(1);
    await updateMemberRole(await manager(0), users[1]!.id, "member");
    expect(await failure(updateMemberRole(stale, users[2]!.id, "admin"))).toMatchObject({ code: "FORBIDDEN" });
    expect((await eventsOf(org.id)).length).toBe(1);
  });

  it("two simultaneous role changes of one member record a true chain of previous values", async () => {
    for (let round = 0; round < 5; round++) {
      const { org, users, manager, roleOf } = await team(["owner", "member"]);
      await Promise.all([
        updateMemberRole(await manager(0), users[1]!.id, "admin"),
        updateMemberRole(await manager(0), users[1]!.id, "owner"),
      ]);
      const events = (await eventsOf(org.id)).map((e) => e.details as { from: Role; to: Role });
      expect(events).toHaveLength(2);
      expect(events[0]!.from).toBe("member");
      expect(events[1]!.from).toBe(events[0]!.to);
      expect(await roleOf(1)).toBe(events[1]!.to);
    }
  });

  it("two owners demoting each other at once: one wins, an owner remains", async () => {
    for (let round = 0; round < 5; round++) {
      const { org, users, manager, roleOf } = await team(["owner", "owner"]);
      // Both checks pass before either change starts (an `await` inside the array would let the
      // first change commit before the second owner's check, which then refuses a member).
      const [first, second] = [await manager(0), await manager(1)];
      const results = await Promise.allSettled([
        updateMemberRole(first, users[1]!.id, "member"),
        updateMemberRole(second, users[0]!.id, "member"),
      ]);
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      expect([await roleOf(0), await roleOf(1)].filter((r) => r === "owner")).toHaveLength(1);
      expect(await eventsOf(org.id)).toHaveLength(1);
    }
  });

  it("roles outside the set are refused at the procedure with a translated 400", async () => {
    const { org, users, sessions } = await team(["owner", "member"]);
    for (const role of ["superuser", "OWNER", "", null, 1]) {
      const answer = await call("organization/updateMemberRole", sessions[0]!.token, {
        organizationId: org.id,
        userId: users[1]!.id,
        role,
      });
      expect(answer.status).toBe(400);
    }
    expect(await eventsOf(org.id)).toHaveLength(0);
  });

  it("an audit insert that fails rolls the role change back", async () => {
    const { users, manager, roleOf } = await team(["owner", "member"]);
    // As the tables' owner: the app's role may not create triggers (decision 0049).
    const asOwner = (sql: string) => queryOnce(process.env.DATABASE_URL!, sql);
    await asOwner(`CREATE FUNCTION fail_audit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'audit down'; END $$`);
    await asOwner(`CREATE TRIGGER fail_audit BEFORE INSERT ON audit_events FOR EACH ROW EXECUTE FUNCTION fail_audit()`);
    try {
      await expect(updateMemberRole(await manager(0), users[1]!.id, "admin")).rejects.toThrow(/audit down/);
    } finally {
      await asOwner(`DROP TRIGGER fail_audit ON audit_events`);
      await asOwner(`DROP FUNCTION fail_audit()`);
    }
    expect(await roleOf(1)).toBe("member");
  });
});

describe("removing and leaving", () => {
  it("records member.removed with the stable user id, and moves the person's sessions off the organization", async () => {
    const { org, users, manager, sessions } = await team(["owner", "admin"]);
    const elsewhere = await createOrganizationWith([{ userId: users[1]!.id, role: "member" }]);
    await removeMember(await manager(0), users[1]!.id);
    const [event] = await eventsOf(org.id);
    expect(event).toMatchObject({
      action: "member.removed",
      targetType: "user",
      targetId: users[1]!.id,
      details: { role: "admin", reason: "removed" },
    });
    const session = await prisma.session.findUniqueOrThrow({ where: { id: sessions[1]!.auth.session.id } });
    expect(session.activeOrganizationId).toBe(elsewhere.id);
    // Removed people cannot act in the organization any more.
    expect((await call("organization/members", sessions[1]!.token, { organizationId: org.id })).status).toBe(403);
  });

  it("refuses removing yourself (that is leaving), the last owner, and unknown or other organizations' members", async () => {
    const { org, users, manager } = await team(["owner", "member"]);
    const other = await team(["owner", "member"]);
    expect(await failure(removeMember(await manager(0), users[0]!.id))).toMatchObject({ messageKey: "member.cannotRemoveSelf" });
    for (const id of [other.users[1]!.id, "not-a-uuid", "00000000-0000-0000-0000-000000000000"]) {
      expect(await failure(removeMember(await manager(0), id))).toMatchObject({ code: "NOT_FOUND" });
      expect(await failure(updateMemberRole(await manager(0), id, "admin"))).toMatchObject({ code: "NOT_FOUND" });
    }
    expect(await other.roleOf(1)).toBe("member");
    expect(await eventsOf(org.id)).toHaveLength(0);
    expect(await eventsOf(other.org.id)).toHaveLength(0);
  });

  it("leaving records member.removed (left); the last owner cannot leave", async () => {
    const { org, users, sessions } = await team(["owner", "member"]);
    expect(await failure(leaveOrganization(await authorizeOrganization(sessions[0]!.auth, org.id)))).toMatchObject({
      code: "CONFLICT",
      messageKey: "member.lastOwnerCannotLeave",
    });
    const left = await call("organization/leave", sessions[1]!.token, { organizationId: org.id });
    expect(left).toMatchObject({ status: 200, json: {} });
    const events = await eventsOf(org.id);
    expect(events.map((e) => [e.action, e.targetId, e.actorId, e.details])).toEqual([
      ["member.removed", users[1]!.id, users[1]!.id, { role: "member", reason: "left" }],
    ]);
  });

  it("organization.members lists everyone for any member, in the contract's shape", async () => {
    const { org, users, sessions } = await team(["owner", "member"]);
    const answer = await call("organization/members", sessions[1]!.token, { organizationId: org.id });
    expect(answer.status).toBe(200);
    expect(answer.json).toHaveLength(users.length);
    expect(answer.json).toEqual(
      expect.arrayContaining(
        users.map((u, i) =>
          expect.objectContaining({
            userId: u.id,
            name: u.name,
            email: u.email,
            role: i === 0 ? "owner" : "member",
            joinedAt: expect.any(String),
          }),
        ),
      ),
    );
    expect((await listMembers(await authorizeOrganization(sessions[0]!.auth, org.id))).length).toBe(2);
  });
});

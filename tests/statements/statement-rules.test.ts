import { describe, expect, it } from "vitest";
import { distributedTablesIn, scatteringTables } from "./statement-rules";

describe("statements that would scatter on Citus", () => {
  it("finds the distributed tables a statement touches, quoted or not, and not their prefixes", () => {
    expect(distributedTablesIn(`SELECT "public"."api_keys"."id" FROM "public"."api_keys" WHERE 1=1`)).toEqual(["api_keys"]);
    expect(distributedTablesIn("SELECT 1 FROM audit_events e JOIN audit_event_users u ON u.user_id = e.actor_id")).toEqual([
      "audit_events",
      "audit_event_users",
    ]);
    expect(distributedTablesIn("SELECT 1 FROM audit_events_monthly")).toEqual([]);
    expect(distributedTablesIn("SELECT 1 FROM users u JOIN memberships m ON m.user_id = u.id")).toEqual([]);
    expect(distributedTablesIn("DELETE FROM sessions WHERE expires_at < now()")).toEqual([]);
  });

  it("passes a statement that names a value of the distribution column", () => {
    expect(scatteringTables(`SELECT * FROM "public"."api_keys" WHERE ("public"."api_keys"."organization_id" = $1 AND 1=1)`)).toEqual([]);
    expect(scatteringTables("UPDATE api_keys SET last_used_at = now() WHERE organization_id = $3 AND secret_hash = $1")).toEqual([]);
    expect(scatteringTables("SELECT * FROM invitations WHERE organization_id = ANY($1)")).toEqual([]);
    expect(scatteringTables(`SELECT * FROM "public"."invitations" WHERE "public"."invitations"."organization_id" IN ($1,$2)`)).toEqual([]);
    expect(
      scatteringTables(
        `SELECT * FROM "public"."audit_event_days" WHERE ("public"."audit_event_days"."organization_id" = CAST($1::text AS uuid))`,
      ),
    ).toEqual([]);
    expect(scatteringTables(`INSERT INTO "public"."audit_events" ("id","organization_id","action") VALUES ($1,$2,$3)`)).toEqual([]);
  });

  it("flags one that does not", () => {
    expect(scatteringTables(`SELECT * FROM "public"."api_keys" WHERE "public"."api_keys"."id" = $1 LIMIT $2`)).toEqual(["api_keys"]);
    expect(scatteringTables("SELECT id FROM invitations WHERE token_hash = $1")).toEqual(["invitations"]);
    expect(scatteringTables("DELETE FROM invitations WHERE expires_at < now()")).toEqual(["invitations"]);
    expect(scatteringTables("SELECT * FROM audit_events WHERE actor_id = $1")).toEqual(["audit_events"]);
    expect(scatteringTables("SELECT * FROM api_keys WHERE active_organization_id = $1")).toEqual(["api_keys"]);
    expect(scatteringTables(`INSERT INTO "public"."audit_events" ("id","action") VALUES ($1,$2)`)).toEqual(["audit_events"]);
    expect(scatteringTables("SELECT * FROM api_keys k JOIN audit_events e ON e.organization_id = k.organization_id")).toEqual([
      "api_keys",
      "audit_events",
    ]);
  });
});

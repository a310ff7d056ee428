// The reader's batch statement walks the stream order index from the cursor: the cursor's row
// comparison and the horizon are both index conditions, so a batch costs the same at any depth of
// a million-event log, and nothing is sorted (the name lookups keep the index's order).
import { expect, it } from "vitest";
import { Prisma } from "~/generated/prisma/client";

const { prisma } = await import("~/db.server");
const { batchSql } = await import("~/audit-streams/delivery/read-batch.server");
const { createOrganizationWith, createUser } = await import("../factories");
const streams = await import("../audit-streams");

it("reads a batch through audit_events_stream_order_idx, cursor and horizon in the index condition, with no sort", async () => {
  const owner = await createUser();
  const organization = await createOrganizationWith([{ userId: owner.id, role: "owner" }], { planId: "enterprise" });
  await streams.recordChanges(organization.id, owner.id, 20);
  const sql = batchSql(organization.id, { transactionId: "0", eventId: "00000000-0000-0000-0000-000000000000" });
  const plan = await prisma.$transaction(async (tx) => {
    // A table this small would be read whole; what matters is that the index can serve the statement.
    await tx.$executeRaw`SET LOCAL enable_seqscan = off`;
    const rows = await tx.$queryRaw<{ "QUERY PLAN": string }[]>(Prisma.sql`EXPLAIN ${sql}`);
    return rows.map((row) => row["QUERY PLAN"]).join("\n");
  });
  const scan = /Index Scan using audit_events_stream_order_idx on audit_events\s+\(.*\)\n\s+Index Cond: (.*)/.exec(plan);
  expect(scan, plan).not.toBeNull();
  expect(scan![1]).toContain("ROW(COALESCE(transaction_id, '0'::xid8), id) > ROW(");
  expect(scan![1]).toMatch(/COALESCE\(transaction_id, '0'::xid8\) < \(InitPlan \d+\)/);
  expect(plan).not.toMatch(/\bSort\b/);
});

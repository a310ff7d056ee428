// Values written into the COPY statement, which takes no parameters.
import { describe, expect, it } from "vitest";
import { inlineSql } from "~/audit/export/sql.server";
import { Prisma } from "~/generated/prisma/client";

describe("inlineSql", () => {
  it("writes each value through the given quoting, dates as ISO text, and refuses anything else", () => {
    const quote = (value: string) => `'${value.replace(/'/g, "''")}'`;
    const sql = Prisma.sql`SELECT 1 WHERE a = ${"x' OR '1'='1"} AND b < ${new Date("2026-01-01T00:00:00Z")}::timestamptz`;
    expect(inlineSql(sql, quote)).toBe(`SELECT 1 WHERE a = 'x'' OR ''1''=''1' AND b < '2026-01-01T00:00:00.000Z'::timestamptz`);
    expect(() => inlineSql(Prisma.sql`SELECT ${1}`, quote)).toThrow(/cannot inline/);
  });
});

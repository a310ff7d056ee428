// Which statements would scatter on Citus: a statement on a distributed table that does not name a
// value of its distribution column (`organization_id = $1`, `= ANY($1)`, `IN ($1, …)`, or the column
// in an INSERT's list) reaches every shard. Read from the normalized text pg_stat_statements keeps
// (constants become $n), for the raw SQL of app/ and the SQL Prisma writes ("public"."t"."c").
//
// A text check, not a planner: a statement passes when, for each distribution column of the tables
// it touches, some value filter on that column appears in it. That misses a filter on the wrong
// alias, and it is why the check runs beside the catalog test and code review, not instead of them.
import { PLACEMENTS, type Placement } from "../../prisma/citus/distribution";

type Distributed = Extract<Placement, { kind: "distributed" }>;

const DISTRIBUTED = (Object.entries(PLACEMENTS) as [string, Placement][]).filter(
  (entry): entry is [string, Distributed] => entry[1].kind === "distributed",
);

/** The distributed tables a statement reads or writes. */
export function distributedTablesIn(statement: string): string[] {
  return DISTRIBUTED.filter(([table]) => new RegExp(`\\b(?:FROM|JOIN|UPDATE|INTO)\\s+${tableName(table)}`, "i").test(statement)).map(
    ([table]) => table,
  );
}

function tableName(table: string): string {
  return `(?:"?public"?\\.)?"?${table}"?(?![\\w"])`;
}

function namesValueOf(statement: string, column: string): boolean {
  const qualified = `(?:[\\w"]+\\.)*"?${column}"?`;
  const filter = new RegExp(`(?<![\\w])${qualified}\\s*(?:=\\s*(?:ANY\\s*\\(\\s*)?(?:CAST\\s*\\()?\\$\\d|IN\\s*\\(\\s*\\$\\d)`, "i");
  return filter.test(statement);
}

function insertsWith(statement: string, table: string, column: string): boolean {
  const insert = new RegExp(`\\bINSERT\\s+INTO\\s+${tableName(table)}\\s*\\(([^)]*)\\)`, "i").exec(statement);
  return !!insert && new RegExp(`(?:^|[\\s,"])${column}"?\\s*(?:,|$)`).test(insert[1]!);
}

/** The distributed tables of the statement whose distribution column it names no value of. */
export function scatteringTables(statement: string): string[] {
  return distributedTablesIn(statement).filter((table) => {
    const { column } = DISTRIBUTED.find(([name]) => name === table)![1];
    return !namesValueOf(statement, column) && !insertsWith(statement, table, column);
  });
}

// A small reader for schema.prisma: models with their table, scalar columns (and which of them
// are typed by an enum), uniques and indexes, and enums. Enough to compare the schema with the migrated database without Prisma's engine.
export interface ParsedModel {
  name: string;
  table: string;
  columns: string[];
  /** Columns whose field is typed by one of the schema's enums, with that enum's name. */
  enumColumns: { column: string; enumName: string }[];
  indexes: { columns: string[]; unique: boolean }[];
}

export function parsePrismaSchema(source: string) {
  const text = source.replace(/\/\/.*$/gm, "");
  const enums: Record<string, string[]> = {};
  for (const match of text.matchAll(/enum\s+(\w+)\s*\{([^}]*)\}/g)) {
    enums[match[1]!] = match[2]!.split(/\s+/).filter((w) => /^\w+$/.test(w));
  }
  const modelNames = new Set([...text.matchAll(/model\s+(\w+)\s*\{/g)].map((m) => m[1]!));
  const models: ParsedModel[] = [];
  for (const match of text.matchAll(/model\s+(\w+)\s*\{([^}]*)\}/g)) {
    const name = match[1]!;
    const body = match[2]!;
    const table = body.match(/@@map\("([^"]+)"\)/)?.[1] ?? name;
    const fieldColumn = new Map<string, string>();
    const indexes: ParsedModel["indexes"] = [];
    const enumColumns: ParsedModel["enumColumns"] = [];
    for (const rawLine of body.split("\n")) {
      const line = rawLine.trim();
      if (!line || line.startsWith("@@")) continue;
      const [field, type] = line.split(/\s+/);
      if (!field || !type) continue;
      const baseType = type.replace(/[?[\]]/g, "");
      if (modelNames.has(baseType)) continue; // relation field, no column
      const column = line.match(/@map\("([^"]+)"\)/)?.[1] ?? field;
      fieldColumn.set(field, column);
      if (Object.hasOwn(enums, baseType)) enumColumns.push({ column, enumName: baseType });
      if (/@id\b/.test(line)) indexes.push({ columns: [column], unique: true });
      if (/@unique\b/.test(line)) indexes.push({ columns: [column], unique: true });
    }
    const columnsOf = (list: string) => list.split(",").map((f) => fieldColumn.get(f.trim().split("(")[0]!.trim()) ?? f.trim());
    for (const m of body.matchAll(/@@(unique|index|id)\(\[([^\]]+)\]/g)) {
      indexes.push({ columns: columnsOf(m[2]!), unique: m[1] !== "index" });
    }
    models.push({ name, table, columns: [...fieldColumn.values()], enumColumns, indexes });
  }
  return { models, enums };
}

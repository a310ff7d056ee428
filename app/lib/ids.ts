// Row ids are UUIDs (v4 for most rows, v7 for audit events). zod's `guid` checks the 8-4-4-4-12 hex
// shape without the version and variant digits (`uuid` would): an id of that shape that names
// nothing is "not found", as it always was, rather than "bad input".
import { z } from "zod";

export const uuidSchema = z.guid();

export function isUuid(value: unknown): value is string {
  return uuidSchema.safeParse(value).success;
}

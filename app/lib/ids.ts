// Row ids are UUIDs (v4 for most rows, v7 for audit events). zod's `guid` checks the 8-4-4-4-12 hex
// shape without the version and variant digits (`uuid` would): an id of that shape that names
// nothing is "not found", as it always was, rather than "bad input".
import { z } from "zod";

export const uuidSchema = z.guid();

export function isUuid(value: unknown): value is string {
  return uuidSchema.safeParse(value).success;
}

/** A uuid's 32 hex digits in the usual 8-4-4-4-12 spelling. */
export function hyphenatedUuid(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

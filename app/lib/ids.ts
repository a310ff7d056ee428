// Row ids are UUIDs (RFC 9562: v4 for most rows, v7 for audit events); zod knows the format.
import { z } from "zod";

export const uuidSchema = z.uuid();

export function isUuid(value: unknown): value is string {
  return uuidSchema.safeParse(value).success;
}

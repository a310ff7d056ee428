import { z } from "zod";

/** Any RFC 9562 UUID (v4 for most rows, v7 for audit events). */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const uuidSchema = z.string().regex(UUID_PATTERN);

export function isUuid(value: unknown): value is string {
  return uuidSchema.safeParse(value).success;
}

import { z } from "zod";

/** Any RFC 9562 UUID (v4 for most rows, v7 for audit events). */
export const uuidSchema = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);

export function isUuid(value: unknown): value is string {
  return uuidSchema.safeParse(value).success;
}

// Where the app serves an organization's logo, and the upload rules the settings form shows.
import { href } from "react-router";

export const LOGO_MAX_BYTES = 512 * 1024;
export const LOGO_TYPES = ["image/png", "image/jpeg", "image/webp"] as const;

export function logoPath(organizationId: string, logoId: string): string {
  return href("/api/organizations/:organizationId/logos/:logoId", { organizationId, logoId });
}

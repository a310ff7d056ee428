// Input rules the service applies itself (the page's forms and the procedures both reach it): a
// refusal is a 400 with the schema's translated message, and an edit's destination is the stored
// one with the given fields laid over it.
import { randomBytes } from "node:crypto";
import type { z } from "zod";
import {
  CREDENTIAL_FIELDS,
  destinationSchemas,
  splitDestination,
  type Destination,
  type DestinationInput,
  type StreamKind,
} from "~/audit-streams/destinations";
import { isErrorKey } from "~/i18n/error-keys";
import { DomainError } from "~/lib/domain-error";
import type { ErrorKey } from "~/lib/error-key";

/** zod's own issue codes, worded as the procedures word them (app/rpc/errors.server.ts). */
const ZOD_CODE_KEYS: Partial<Record<string, ErrorKey>> = {
  invalid_type: "field.invalidType",
  invalid_value: "field.invalidChoice",
  unrecognized_keys: "field.unexpected",
};

/** The value as the schema makes it, or a 400 naming the first problem. */
export function parseOrRefuse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const key = issue && isErrorKey(issue.message) ? issue.message : (ZOD_CODE_KEYS[issue?.code ?? ""] ?? "field.invalid");
  throw new DomainError("BAD_REQUEST", key);
}

/** A Standard Webhooks signing secret: `whsec_` and the base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

/**
 * The destination an edit leads to: the stored settings and credentials with the given fields laid
 * over them, checked whole by the kind's schema. A credential left out or given as "" keeps the
 * stored one (the page never shows it, so it cannot send it back); a setting left out keeps its
 * value and one given as "" is cleared. The kind cannot change. An edit that sends the stored
 * credentials somewhere else (`movesCredentials`) must enter every one of them again.
 */
export function changedDestination(stored: Destination, fields: Record<string, unknown>): Destination {
  if (fields.kind !== undefined && fields.kind !== stored.kind) throw new DomainError("BAD_REQUEST", "auditStreamChange.kindFixed");
  const credentialFields: readonly string[] = CREDENTIAL_FIELDS[stored.kind];
  const merged: Record<string, unknown> = { ...stored.settings, ...stored.credentials };
  for (const [field, value] of Object.entries(fields)) {
    if (field === "kind") continue;
    if (credentialFields.includes(field) && (value === undefined || value === "")) continue;
    if (value !== undefined) merged[field] = value;
  }
  const schema: z.ZodType<DestinationInput> = destinationSchemas[stored.kind as StreamKind];
  const changed = splitDestination(parseOrRefuse(schema, { ...merged, kind: stored.kind }));
  const allEntered = credentialFields.every((field) => typeof fields[field] === "string" && fields[field] !== "");
  if (movesCredentials(stored, changed) && !allEntered) throw new DomainError("BAD_REQUEST", "auditStreamChange.credentialsRequired");
  return changed;
}

/** A URL's origin (scheme, host, port), or the value itself when it is not a URL (or not set). */
const originOf = (value: unknown) => (typeof value === "string" ? (URL.parse(value)?.origin ?? value) : value);

/**
 * Whether the stored credentials would go to another party after this edit: a Splunk token or a
 * Datadog key is sent in a header to the URL's origin, so a new origin (another host, port or
 * scheme) would hand it over; S3 keys sign requests for one endpoint, bucket and region. Anyone who
 * can edit a stream (or a stolen admin session) could otherwise read a write-only credential by
 * pointing the stream at a host of theirs. A new path on the same origin, an index, a prefix or a
 * tag stays with the same receiver. A webhook's secret only signs (the secret never leaves), so
 * its URL may change freely.
 */
export function movesCredentials(from: Destination, to: Destination): boolean {
  const a = from.settings as Record<string, unknown>;
  const b = to.settings as Record<string, unknown>;
  switch (from.kind) {
    case "webhook":
      return false;
    case "splunk":
    case "datadog":
      return originOf(a.url) !== originOf(b.url);
    case "s3":
      return a.endpoint !== b.endpoint || a.bucket !== b.bucket || a.region !== b.region;
  }
}

/** Whether two values stored as JSON are the same (key order aside). */
export function sameJson(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((key) => JSON.stringify(a[key]) === JSON.stringify(b[key]));
}

// What an audit stream sends to, in one place: the four kinds of destination, the fields each
// takes (the RPC input is flat, `{organizationId, name, kind, …fields}`, docs/contract.md), which of
// those fields are credentials, and how a destination is named where credentials must not show
// (audit details, logs). Pure rules with no server code: the page's forms read them in the browser.
// Credentials are kept apart from settings from the first step: `splitDestination` is the only
// place that decides which field is which.
import { z } from "zod";
import { errorKey } from "~/lib/error-key";
import { isStorableText, storedText } from "~/lib/text";

export const STREAM_KINDS = ["webhook", "splunk", "datadog", "s3"] as const;
export type StreamKind = (typeof STREAM_KINDS)[number];

export const STREAM_STATES = ["active", "paused", "failing"] as const;
export type StreamState = (typeof STREAM_STATES)[number];

/** A setting must be text we can store and show: no control or invisible characters (app/lib/text.ts). */
const noControl = (value: string) => isStorableText(value);

const streamName = storedText({ max: 100 });

/**
 * A destination URL as typed: absolute, http(s), no user name or password in it (credentials have
 * their own fields, which are never shown again), at most 2,000 characters. Whether `http:` and
 * private addresses are allowed is the outbound policy's decision (STREAMING_ALLOW_PRIVATE_NETWORKS),
 * checked on the server at save time and again on every connection.
 */
const destinationUrl = z
  .string()
  .trim()
  .max(2000, errorKey("auditStream.urlTooLong"))
  .refine(noControl, errorKey("auditStream.urlInvalid"))
  .refine((value) => {
    const url = URL.parse(value);
    return url !== null && (url.protocol === "https:" || url.protocol === "http:") && url.hostname !== "";
  }, errorKey("auditStream.urlInvalid"))
  .refine((value) => {
    const url = URL.parse(value);
    return url === null || (url.username === "" && url.password === "");
  }, errorKey("auditStream.urlWithCredentials"));

/** A Standard Webhooks secret: `whsec_` and the base64 of 24 to 64 random bytes. */
export const WEBHOOK_SECRET = /^whsec_(?:[A-Za-z0-9+/]{4}){8,22}(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const webhookSecret = z
  .string()
  .trim()
  .max(200, errorKey("auditStream.secretInvalid"))
  .regex(WEBHOOK_SECRET, errorKey("auditStream.secretInvalid"));
/** A Splunk HTTP Event Collector token (a GUID in Splunk; any 1-128 token characters accepted). */
const splunkToken = z
  .string()
  .trim()
  .max(128, errorKey("auditStream.tokenInvalid"))
  .regex(/^[A-Za-z0-9-]{1,128}$/, errorKey("auditStream.tokenInvalid"));
/** A Datadog API key: 32 hexadecimal characters. */
const datadogApiKey = z
  .string()
  .trim()
  .max(64, errorKey("auditStream.apiKeyInvalid"))
  .regex(/^[0-9a-fA-F]{32}$/, errorKey("auditStream.apiKeyInvalid"));
const s3AccessKeyId = z
  .string()
  .trim()
  .max(128, errorKey("auditStream.accessKeyInvalid"))
  .regex(/^[A-Za-z0-9]{3,128}$/, errorKey("auditStream.accessKeyInvalid"));
const s3SecretAccessKey = z
  .string()
  .trim()
  .max(256, errorKey("auditStream.secretKeyInvalid"))
  .regex(/^[\x21-\x7e]{8,256}$/, errorKey("auditStream.secretKeyInvalid"));

/** Splunk index and source type, Datadog service and tags: short names, no spaces. */
const shortName = (max: number) =>
  z
    .string()
    .trim()
    .max(max, errorKey("auditStream.fieldInvalid"))
    .regex(/^[A-Za-z0-9_.:/-]*$/, errorKey("auditStream.fieldInvalid"));
/** Datadog tags: comma-separated `key:value` words, as Datadog's `ddtags` takes them. */
const datadogTags = z
  .string()
  .trim()
  .max(500, errorKey("auditStream.fieldInvalid"))
  .regex(/^[A-Za-z0-9_.:/,-]*$/, errorKey("auditStream.fieldInvalid"));
/** S3 bucket names (the AWS rules: 3-63 lowercase letters, digits, dots and hyphens). */
const s3Bucket = z
  .string()
  .trim()
  .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, errorKey("auditStream.bucketInvalid"));
const s3Region = z
  .string()
  .trim()
  .regex(/^[a-z0-9-]{2,32}$/, errorKey("auditStream.regionInvalid"));
/** A key prefix inside the bucket: path characters only, ending in `/` when set. */
const s3Prefix = z
  .string()
  .trim()
  .max(200, errorKey("auditStream.prefixInvalid"))
  .regex(/^(?:[A-Za-z0-9_.-]+\/)*$/, errorKey("auditStream.prefixInvalid"));
const optional = <T extends z.ZodType>(schema: T) => z.union([z.literal("").transform(() => undefined), schema]).optional();

/** The Datadog logs intake of the US1 site; other sites (EU, US3, US5, AP1, Gov) have their own host. */
export const DATADOG_DEFAULT_URL = "https://http-intake.logs.datadoghq.com";

/** Each kind's fields, settings and credentials together, as the create form and `auditStream.create` take them. */
export const destinationSchemas = {
  webhook: z.object({ kind: z.literal("webhook"), url: destinationUrl, secret: optional(webhookSecret) }).strict(),
  splunk: z
    .object({
      kind: z.literal("splunk"),
      url: destinationUrl,
      token: splunkToken,
      index: optional(shortName(80)),
      sourcetype: optional(shortName(80)),
    })
    .strict(),
  datadog: z
    .object({
      kind: z.literal("datadog"),
      url: destinationUrl.default(DATADOG_DEFAULT_URL),
      apiKey: datadogApiKey,
      service: optional(shortName(100)),
      tags: optional(datadogTags),
    })
    .strict(),
  s3: z
    .object({
      kind: z.literal("s3"),
      endpoint: optional(destinationUrl),
      region: s3Region,
      bucket: s3Bucket,
      prefix: optional(s3Prefix),
      forcePathStyle: z.boolean().optional(),
      accessKeyId: s3AccessKeyId,
      secretAccessKey: s3SecretAccessKey,
    })
    .strict(),
} as const;

/** Which fields of each kind are credentials: stored apart, never returned, never logged, never in details. */
export const CREDENTIAL_FIELDS = {
  webhook: ["secret"],
  splunk: ["token"],
  datadog: ["apiKey"],
  s3: ["accessKeyId", "secretAccessKey"],
} as const satisfies { [K in StreamKind]: readonly Exclude<keyof z.output<(typeof destinationSchemas)[K]>, "kind">[] };

export const destinationSchema = z.discriminatedUnion("kind", [
  destinationSchemas.webhook,
  destinationSchemas.splunk,
  destinationSchemas.datadog,
  destinationSchemas.s3,
]);
export type DestinationInput = z.output<typeof destinationSchema>;

export const streamNameSchema = streamName;

/**
 * Each kind's fields plus `extra` (the stream's name, the procedure's organization id…), still
 * strict: one object per kind, chosen by `kind`. (An intersection of a strict destination with
 * another object refuses the other object's fields as unrecognized.)
 */
export function destinationWith<S extends z.ZodRawShape>(extra: S) {
  return z.discriminatedUnion(
    "kind",
    [
      destinationSchemas.webhook.extend(extra),
      destinationSchemas.splunk.extend(extra),
      destinationSchemas.datadog.extend(extra),
      destinationSchemas.s3.extend(extra),
    ],
    { error: errorKey("auditStreamChange.kindUnknown") },
  );
}

/** What `auditStream.create` and the create form take, beside the organization id. */
export const streamInputSchema = destinationWith({ name: streamName });
export type StreamInput = z.output<typeof streamInputSchema>;

export type DestinationSettings<K extends StreamKind = StreamKind> = Omit<
  z.output<(typeof destinationSchemas)[K]>,
  (typeof CREDENTIAL_FIELDS)[K][number] | "kind"
>;
export type DestinationCredentials<K extends StreamKind = StreamKind> = Pick<
  z.output<(typeof destinationSchemas)[K]>,
  Extract<(typeof CREDENTIAL_FIELDS)[K][number], keyof z.output<(typeof destinationSchemas)[K]>>
>;

/** A destination as stored: the kind, its settings (shown on the page) and its credentials (never shown). */
export type Destination = {
  [K in StreamKind]: { kind: K; settings: DestinationSettings<K>; credentials: Partial<DestinationCredentials<K>> };
}[StreamKind];

/** Splits typed fields into settings and credentials (the one place that decides which is which). */
export function splitDestination(input: DestinationInput): Destination {
  const credentialFields: readonly string[] = CREDENTIAL_FIELDS[input.kind];
  const settings: Record<string, unknown> = {};
  const credentials: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(input)) {
    if (field === "kind" || value === undefined) continue;
    (credentialFields.includes(field) ? credentials : settings)[field] = value;
  }
  return { kind: input.kind, settings, credentials } as Destination;
}

/**
 * Where a destination sends, without anything that could carry a secret: the URL's origin, with
 * `/…` when it has a path (hooks such as Zapier's or Slack's carry their secret in the path; the
 * query string and fragment are left out too), or `s3://bucket/prefix`. This is what audit
 * details (append-only, exported, streamed), logs, the owners' mail and the page's list name; the
 * `/…` still tells two destinations on one host apart from one at the host's root.
 */
export function destinationLabel(destination: Pick<Destination, "kind" | "settings">): string {
  if (destination.kind === "s3") {
    const settings = destination.settings as DestinationSettings<"s3">;
    return `s3://${settings.bucket}/${settings.prefix ?? ""}`;
  }
  const url = URL.parse((destination.settings as { url: string }).url);
  return url ? `${url.origin}${url.pathname === "/" ? "" : "/…"}` : "";
}

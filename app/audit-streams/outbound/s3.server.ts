// The S3-compatible storage destination: each batch as gzip NDJSON objects, one per UTC hour the
// batch spans, under `<prefix><organizationId>/<yyyy>/<mm>/<dd>/<hh>/<first id>-<last id>.ndjson.gz`
// (docs/audit-stream-format.md). A retry of the same batch writes the same keys with the same bytes,
// so a retried object replaces itself instead of adding a copy.
import { gzipSync } from "node:zlib";
import { PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import {
  failed,
  failureOfError,
  OutboundTimeoutError,
  resultOfStatus,
  type SendFailure,
} from "~/audit-streams/outbound/failure-of-error.server";
import { limitedHttpHandler } from "~/audit-streams/outbound/limited-http-handler.server";
import { schemeRefusal } from "~/audit-streams/outbound/safe-request.server";
import type { DestinationCredentials, DestinationSettings } from "~/audit-streams/destinations";
import type { OutboundPolicy, SendResult } from "~/audit-streams/outbound/send-result";
import type { StreamBatch, StreamEvent } from "~/audit-streams/stream-event";

export interface S3Object {
  key: string;
  events: StreamEvent[];
}

/** The batch's events grouped by the UTC hour they were created in, each group in stream order. */
export function s3Objects(batch: StreamBatch, prefix = ""): S3Object[] {
  const byHour = new Map<string, StreamEvent[]>();
  for (const event of batch.events) {
    // createdAt is ISO 8601 UTC: "2026-11-26T10:59:58.000Z" → "2026/11/26/10".
    const hour = `${event.createdAt.slice(0, 4)}/${event.createdAt.slice(5, 7)}/${event.createdAt.slice(8, 10)}/${event.createdAt.slice(11, 13)}`;
    byHour.set(hour, [...(byHour.get(hour) ?? []), event]);
  }
  return [...byHour].map(([hour, events]) => ({
    key: `${prefix}${batch.organizationId}/${hour}/${events[0]!.id}-${events.at(-1)!.id}.ndjson.gz`,
    events,
  }));
}

/** One JSON event per line, gzip'd. Node writes no time into the gzip header, so the bytes repeat. */
export function s3ObjectBody(events: StreamEvent[]): Buffer {
  return gzipSync(events.map((event) => `${JSON.stringify(event)}\n`).join(""));
}

function s3Failure(error: unknown, timedOut: boolean, timeoutMs: number): SendFailure {
  if (timedOut) return failureOfError(new OutboundTimeoutError(timeoutMs));
  const status = (error as { $metadata?: { httpStatusCode?: unknown } } | null)?.$metadata?.httpStatusCode;
  if (typeof status === "number" && (status < 200 || status >= 300)) {
    const verdict = resultOfStatus(status);
    // S3's error code (AccessDenied, NoSuchBucket) says what to fix; it is a name, never content.
    const name = error instanceof Error && /^[A-Za-z]{1,64}$/.test(error.name) && error.name !== "Error" ? ` (${error.name})` : "";
    if (!verdict.ok) return { ...verdict, detail: `${verdict.detail}${name}` };
  }
  return failureOfError(error);
}

export async function sendS3(
  settings: DestinationSettings<"s3">,
  credentials: Partial<DestinationCredentials<"s3">>,
  batch: StreamBatch,
  policy: OutboundPolicy,
): Promise<SendResult> {
  if (!credentials.accessKeyId || !credentials.secretAccessKey) return failed("rejected", "no access key stored");
  const endpoint = settings.endpoint ? URL.parse(settings.endpoint) : null;
  const refused = endpoint ? schemeRefusal(endpoint, policy) : null;
  if (refused) return refused;
  const client = new S3Client({
    region: settings.region,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    forcePathStyle: settings.forcePathStyle ?? false,
    credentials: { accessKeyId: credentials.accessKeyId, secretAccessKey: credentials.secretAccessKey },
    // The delivery job retries with its own pauses; one attempt here.
    maxAttempts: 1,
    // Checksums only where S3 requires them: S3-compatible servers differ in the newer checksum headers.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    requestHandler: limitedHttpHandler(policy),
  });
  // One clock for the whole batch, every object included.
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), policy.timeoutMs);
  let status: number | null = null;
  try {
    for (const object of s3Objects(batch, settings.prefix)) {
      const output = await client.send(
        new PutObjectCommand({
          Bucket: settings.bucket,
          Key: object.key,
          Body: s3ObjectBody(object.events),
          ContentType: "application/gzip",
        }),
        { abortSignal: abort.signal },
      );
      status = output.$metadata.httpStatusCode ?? null;
    }
    return { ok: true, status };
  } catch (error) {
    return s3Failure(error, abort.signal.aborted, policy.timeoutMs);
  } finally {
    clearTimeout(timer);
    client.destroy();
  }
}

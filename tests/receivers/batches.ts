// Stream batches for the outbound tests: events with UUID v7 ids in order, as the delivery job
// would read them, and a destination of each kind pointing at a test receiver.
import { v7 as uuidv7 } from "uuid";
import type { OutboundPolicy } from "~/audit-streams/outbound/send-result";
import type { StreamBatch, StreamEvent } from "~/audit-streams/stream-event";

export const ORGANIZATION_ID = "0190a6a0-0000-7000-8000-000000000001";
export const STREAM_ID = "0190a6a0-0000-7000-8000-0000000000aa";

/** `count` events one second apart from `start`, oldest first. */
export function sampleEvents(count: number, start = new Date("2026-11-26T10:59:58.000Z")): StreamEvent[] {
  return Array.from({ length: count }, (_, index) => ({
    id: uuidv7(),
    createdAt: new Date(start.getTime() + index * 1000).toISOString(),
    action: "api_key.created",
    actorKind: "user",
    actorId: "0190a6a0-0000-7000-8000-0000000000b1",
    actorName: "Ada Lovelace",
    targetType: "api_key",
    targetId: `0190a6a0-0000-7000-8000-${String(index).padStart(12, "0")}`,
    targetName: `deploy key ${index}`,
    details: { scopes: ["keys:read"], note: "ü ✓" },
  }));
}

export function sampleBatch(count = 3, start?: Date): StreamBatch {
  return { organizationId: ORGANIZATION_ID, streamId: STREAM_ID, type: "audit.events", events: sampleEvents(count, start) };
}

/** Express's default JSON body limit (body-parser's `100kb`): the smallest limit receivers commonly have. */
export const EXPRESS_BODY_LIMIT = 100 * 1024;

/** `count` events whose details carry `detailBytes` of text each: a batch far above a body limit. */
export function largeBatch(count: number, detailBytes = 1200): StreamBatch {
  const events = sampleEvents(count).map((event, index) => ({ ...event, details: { index, note: "x".repeat(detailBytes) } }));
  return { ...sampleBatch(0), events };
}

/** Loopback receivers need private networks allowed; the limits are the real ones unless a test shortens them. */
export function testPolicy(overrides: Partial<OutboundPolicy> = {}): OutboundPolicy {
  return { allowPrivateNetworks: true, timeoutMs: 10_000, maxResponseBytes: 64 * 1024, ...overrides };
}

/** The policy in force by default: private networks refused. */
export function guardedPolicy(overrides: Partial<OutboundPolicy> = {}): OutboundPolicy {
  return testPolicy({ allowPrivateNetworks: false, ...overrides });
}

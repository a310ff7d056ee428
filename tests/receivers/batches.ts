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

/** Loopback receivers need private networks allowed; the limits are the real ones unless a test shortens them. */
export function testPolicy(overrides: Partial<OutboundPolicy> = {}): OutboundPolicy {
  return { allowPrivateNetworks: true, timeoutMs: 10_000, maxResponseBytes: 64 * 1024, ...overrides };
}

/** The policy in force by default: private networks refused. */
export function guardedPolicy(overrides: Partial<OutboundPolicy> = {}): OutboundPolicy {
  return testPolicy({ allowPrivateNetworks: false, ...overrides });
}

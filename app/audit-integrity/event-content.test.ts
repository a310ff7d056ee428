// The event's canonical text is written member by member for speed; it must stay exactly the
// general canonical JSON of the same object (the format docs/audit-digests.md describes).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "~/lib/canonical-json";
import { canonicalEventText, eventSha256, type SealedEvent } from "./event-content";
import { createHash } from "node:crypto";

const general = (event: SealedEvent) =>
  canonicalJson({
    action: event.action,
    actorId: event.actorId,
    actorKind: event.actorKind,
    createdAt: new Date(event.createdAtMs).toISOString(),
    details: event.details,
    id: event.id,
    organizationId: event.organizationId,
    targetId: event.targetId,
    targetType: event.targetType,
  });

describe("canonicalEventText", () => {
  it("is the canonical JSON of the event's facts, whatever they hold", () => {
    fc.assert(
      fc.property(
        fc.record({
          id: fc.uuid(),
          organizationId: fc.uuid(),
          createdAtMs: fc.integer({ min: 946_684_800_000, max: 253_402_300_799_999 }),
          action: fc.string(),
          actorKind: fc.constantFrom("user", "api_key", "system"),
          actorId: fc.string(),
          targetType: fc.string(),
          targetId: fc.string({ unit: "grapheme" }),
          details: fc.jsonValue().map((value) => JSON.parse(JSON.stringify(value)) as unknown),
        }),
        (event) => {
          expect(canonicalEventText(event)).toBe(general(event));
          expect(eventSha256(event).equals(createHash("sha256").update(general(event)).digest())).toBe(true);
        },
      ),
    );
  });
});

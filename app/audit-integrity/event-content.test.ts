// The event's canonical text is written out for speed; it must stay exactly canonicalJson of the
// nine facts (RFC 8785), whatever the details hold: nested and unordered keys, unicode, escapes,
// numbers, arrays, nulls.
import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalEventText, canonicalEventTextByRule, eventSha256, type SealedEvent } from "./event-content";

const base: SealedEvent = {
  id: "01936b6e-0000-7000-8000-000000000001",
  organizationId: "5f0c4b6e-1a2b-4c3d-8e9f-0a1b2c3d4e5f",
  createdAtMs: Date.UTC(2026, 10, 26, 9, 30, 0, 7),
  action: "organization.settings_changed",
  actorKind: "user",
  actorId: "user-1",
  targetType: "organization",
  targetId: "5f0c4b6e-1a2b-4c3d-8e9f-0a1b2c3d4e5f",
  details: { name: { to: "B", from: "A" } },
};

describe("an event's canonical text", () => {
  const details: unknown[] = [
    {},
    { name: { to: 'Zürich \u2028 "quoted" \\ back', from: "😀 \u0000 control" } },
    { b: [3, 1.5, -0, 1e21, 2e-7, null, true], a: { z: {}, y: [], "\u00e9": 1, e: 2, "": 3 } },
    { scopes: ["organization:read", "member:read"], expiresAt: null, count: 12345678901234 },
  ];
  it.each(details)("is canonicalJson of the nine facts (%#)", (value) => {
    const event = { ...base, details: value, actorId: 'a"b', targetType: "api_key" };
    expect(canonicalEventText(event)).toBe(canonicalEventTextByRule(event));
  });

  it("is the nine facts in key order, and its hash is SHA-256 of that text", () => {
    const text = canonicalEventText(base);
    expect(text).toBe(
      '{"action":"organization.settings_changed","actorId":"user-1","actorKind":"user","createdAt":"2026-11-26T09:30:00.007Z",' +
        '"details":{"name":{"from":"A","to":"B"}},"id":"01936b6e-0000-7000-8000-000000000001",' +
        '"organizationId":"5f0c4b6e-1a2b-4c3d-8e9f-0a1b2c3d4e5f","targetId":"5f0c4b6e-1a2b-4c3d-8e9f-0a1b2c3d4e5f","targetType":"organization"}',
    );
    expect(eventSha256(base).equals(createHash("sha256").update(text, "utf8").digest())).toBe(true);
  });

  it("is canonicalJson of the nine facts whatever they hold (generated events)", () => {
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
          expect(canonicalEventText(event)).toBe(canonicalEventTextByRule(event));
          expect(eventSha256(event).equals(createHash("sha256").update(canonicalEventTextByRule(event)).digest())).toBe(true);
        },
      ),
    );
  });
});

// The audit catalog spells the stream kinds and the test's outcomes itself (the audit layer sits
// below audit-streams): they stay the lists the streams use, and each reads by its label in both
// languages.
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { STREAM_KINDS } from "~/audit-streams/destinations";
import { DELIVERY_FAILURES } from "~/audit-streams/outbound/send-result";
import { auditCatalog } from "~/audit/catalog";
import { detailValueLabel, presentDetails } from "~/audit/ui/detail-presentation";
import { supportedLanguages } from "~/i18n/config";
import { fixedT } from "~/i18n/i18next.server";

const options = (schema: z.ZodType, field: string): string[] => {
  const shape = (schema as z.ZodObject).shape as Record<string, z.ZodType>;
  return (shape[field] as z.ZodEnum).options as string[];
};

describe("the audit stream actions", () => {
  it("name the same kinds and outcomes as the streams", () => {
    expect(options(auditCatalog["audit_stream.created"].details, "kind")).toEqual([...STREAM_KINDS]);
    expect(options(auditCatalog["audit_stream.deleted"].details, "kind")).toEqual([...STREAM_KINDS]);
    expect(options(auditCatalog["audit_stream.tested"].details, "outcome")).toEqual(["delivered", ...DELIVERY_FAILURES]);
  });

  it("refuse anything in their details beyond what they define (a credential has no place to go)", () => {
    const created = auditCatalog["audit_stream.created"].details;
    expect(created.safeParse({ name: "S", kind: "webhook", destination: "https://x.test", start: "now" }).success).toBe(true);
    expect(created.safeParse({ name: "S", kind: "webhook", destination: "https://x.test", start: "now", secret: "whsec_x" }).success).toBe(
      false,
    );
    expect(auditCatalog["audit_stream.updated"].details.safeParse({}).success).toBe(false);
    expect(auditCatalog["audit_stream.updated"].details.safeParse({ credentialsReplaced: false }).success).toBe(false);
    expect(auditCatalog["audit_stream.restarted"].details.safeParse({ name: "S", start: "yesterday" }).success).toBe(false);
  });

  it("show kinds, outcomes, starts and changed settings by their labels in English and German", () => {
    for (const language of supportedLanguages) {
      const t = fixedT(language, "audit");
      const anyKey = t as unknown as (key: string) => string;
      for (const kind of STREAM_KINDS) expect(detailValueLabel(t, "kind", kind)).not.toBe(kind);
      for (const outcome of ["delivered", ...DELIVERY_FAILURES]) expect(detailValueLabel(t, "outcome", outcome)).not.toBe(outcome);
      expect(detailValueLabel(t, "start", "now")).not.toBe("now");
      expect(detailValueLabel(t, "start", "2026-03-01")).toBe("2026-03-01");
      expect(detailValueLabel(t, "changedSettings", "sourcetype")).not.toBe("sourcetype");
      for (const action of Object.keys(auditCatalog).filter((a) => a.startsWith("audit_stream."))) {
        expect(anyKey(`actions.${action}.label`)).not.toContain("actions.");
      }
      const rows = presentDetails("audit_stream.updated", {
        destination: { from: "https://a.test", to: "https://b.test" },
        credentialsReplaced: true,
      });
      for (const row of rows) expect(anyKey(row.labelKey)).not.toBe(row.labelKey.replace("audit:", ""));
    }
  });
});

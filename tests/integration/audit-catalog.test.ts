// Every action of the catalog has English and German label, description and detail labels, and
// its details schema refuses extra members.
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { AUDIT_ACTIONS, auditCatalog } from "~/audit/catalog";
import { resources } from "~/i18n/resources";

function lookup(tree: unknown, path: string): unknown {
  return path
    .split(".")
    .reduce<unknown>((node, part) => (node && typeof node === "object" ? (node as Record<string, unknown>)[part] : undefined), tree);
}

describe("audit catalog", () => {
  it("includes the default actions of docs/product-rules.md and the key actions", () => {
    expect(AUDIT_ACTIONS).toEqual(
      expect.arrayContaining([
        "invitation.sent",
        "invitation.accepted",
        "invitation.canceled",
        "member.removed",
        "member.role_changed",
        "organization.settings_changed",
        "audit.exported",
        "api_key.issued",
        "api_key.rotated",
        "api_key.revoked",
      ]),
    );
    for (const action of ["api_key.issued", "api_key.rotated", "api_key.revoked"] as const)
      expect(auditCatalog[action].targetType).toBe("api_key");
  });

  it("has a label, a description and detail labels in every language", () => {
    for (const language of ["en", "de"] as const) {
      const audit = resources[language].audit;
      for (const action of AUDIT_ACTIONS) {
        expect(lookup(audit.actions, `${action}.label`), `${language} ${action} label`).toEqual(expect.any(String));
        expect(lookup(audit.actions, `${action}.description`), `${language} ${action} description`).toEqual(expect.any(String));
        const schema = auditCatalog[action].details as z.ZodObject;
        for (const field of Object.keys(schema.shape)) {
          expect(lookup(audit.details, field), `${language} ${action} detail ${field}`).toEqual(expect.any(String));
        }
      }
    }
  });

  it("refuses extra members in every details schema", () => {
    for (const action of AUDIT_ACTIONS) {
      const result = auditCatalog[action].details.safeParse({ requestBody: { password: "x" } });
      expect(result.success, action).toBe(false);
    }
  });

  it("never allows secret material in key event details", () => {
    const issued = auditCatalog["api_key.issued"].details;
    expect(issued.safeParse({ name: "CI", scopes: ["audit:view"], expiresAt: null }).success).toBe(true);
    for (const extra of ["secret", "secretHash", "prefix", "hash"]) {
      expect(issued.safeParse({ name: "CI", scopes: ["audit:view"], expiresAt: null, [extra]: "sk_x" }).success).toBe(false);
    }
  });

  it("keeps a rotation's listed prefixes, never a whole secret, and still accepts rotations recorded without them", () => {
    const rotated = auditCatalog["api_key.rotated"].details;
    expect(rotated.safeParse({ name: "CI" }).success).toBe(true);
    expect(rotated.safeParse({ name: "CI", prefix: { from: "sk_AbCd1234", to: "sk_Zz990000" } }).success).toBe(true);
    const secret = "sk_" + "A".repeat(49);
    for (const prefix of [
      { from: secret, to: "sk_Zz990000" },
      { from: "sk_AbCd1234", to: secret },
      { from: "sk_AbCd1234" },
      { from: "sk_AbCd1234", to: "sk_Zz990000", secret },
      "sk_AbCd1234",
    ]) {
      expect(rotated.safeParse({ name: "CI", prefix }).success, JSON.stringify(prefix)).toBe(false);
    }
    for (const extra of ["secret", "secretHash", "hash"]) {
      expect(rotated.safeParse({ name: "CI", [extra]: "sk_AbCd1234" }).success).toBe(false);
    }
  });
});

import { describe, expect, it } from "vitest";
import { supportedLanguages } from "~/i18n/config";
import { fixedT } from "~/i18n/i18next.server";
import { detailValueLabel } from "~/audit/ui/detail-presentation";

describe("audit detail values", () => {
  it("show roles, scopes, reasons and actions by their translated labels in English and German", () => {
    for (const language of supportedLanguages) {
      const t = fixedT(language, "audit");
      const apiKeys = fixedT(language, "apiKeys");
      expect(detailValueLabel(t, "scopes", "audit:view")).toBe(apiKeys("scopes.audit_view"));
      expect(detailValueLabel(t, "scopes", "audit:view")).not.toBe("audit:view");
      expect(detailValueLabel(t, "role", "admin")).not.toBe("admin");
      expect(detailValueLabel(t, "reason", "left")).not.toBe("left");
      expect(detailValueLabel(t, "action", "api_key.issued")).toBe(t("actions.api_key.issued.label"));
      expect(detailValueLabel(t, "action", "api_key.issued")).not.toBe("api_key.issued");
      // Plans by the catalog's name (a dropped plan by its id), billing states and billing reasons by their labels.
      expect(detailValueLabel(t, "plan", "enterprise")).toBe("Enterprise");
      expect(detailValueLabel(t, "plan", "legacy-gold")).toBe("legacy-gold");
      expect(detailValueLabel(t, "state", "past_due_blocked")).toBe(t("values.billingState.past_due_blocked"));
      expect(detailValueLabel(t, "state", "past_due_blocked")).not.toBe("past_due_blocked");
      expect(detailValueLabel(t, "reason", "refund")).not.toBe("refund");
      expect(detailValueLabel(t, "reason", "payment_failed")).not.toBe("payment_failed");
      // Values that are not identifiers stay as they are.
      expect(detailValueLabel(t, "name", "Production key")).toBe("Production key");
    }
  });
});

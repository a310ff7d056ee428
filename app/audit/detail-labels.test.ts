import i18next from "i18next";
import { describe, expect, it } from "vitest";
import { defaultNS, supportedLanguages } from "~/i18n/config";
import { namespaces, resources } from "~/i18n/resources";
import { detailValueLabel } from "./audit-log-view";

function fixedT(language: "en" | "de", ns: string) {
  const i18n = i18next.createInstance();
  void i18n.init({
    resources,
    ns: namespaces,
    defaultNS,
    lng: language,
    fallbackLng: "en",
    interpolation: { escapeValue: false },
    initAsync: false,
  });
  return i18n.getFixedT(language, ns);
}

describe("audit detail values", () => {
  it("show roles, scopes and reasons by their translated labels in English and German", () => {
    for (const language of supportedLanguages) {
      const t = fixedT(language, "audit");
      const apiKeys = fixedT(language, "apiKeys");
      expect(detailValueLabel(t, "scopes", "audit:view")).toBe(apiKeys("scopes.audit_view"));
      expect(detailValueLabel(t, "scopes", "audit:view")).not.toBe("audit:view");
      expect(detailValueLabel(t, "role", "admin")).not.toBe("admin");
      expect(detailValueLabel(t, "reason", "left")).not.toBe("left");
      // Values that are not identifiers stay as they are.
      expect(detailValueLabel(t, "name", "Production key")).toBe("Production key");
    }
  });
});

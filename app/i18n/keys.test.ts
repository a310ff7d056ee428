// Translation keys are types (keys.ts): a key the English locale does not have fails tsc. The
// `@ts-expect-error` lines are the proof: if one of them compiled, tsc would report the directive.
import { describe, expect, it } from "vitest";
import { DomainError } from "~/lib/domain-error";
import { errorKey } from "~/lib/error-key";
import { fixedT } from "./i18next.server";

describe("typed translation keys", () => {
  it("take the locale's keys, with or without their namespace, and refuse a missing one", () => {
    const t = fixedT("en");
    expect(t("nav.dashboard")).toBe("Dashboard");
    expect(t("errors:notFound")).toBe("Not found.");
    expect(t("errors:wait.seconds", { count: 2 })).toBe("2 seconds");
    // @ts-expect-error "nav.dashbord" is not a key of `common`.
    expect(t("nav.dashbord")).toBe("nav.dashbord");
  });

  it("take a key built from data only with its fallback", () => {
    const t = fixedT("en");
    const kind: string = "gadget";
    expect(t(`audit:targetTypes.${kind}`, { defaultValue: kind })).toBe("gadget");
    // @ts-expect-error a key that may not exist needs a defaultValue.
    expect(t(`audit:targetTypes.${kind}`)).toBe("targetTypes.gadget");
  });

  it("type error messages: a DomainError's key and a schema's key are keys under errors:", () => {
    expect(new DomainError("NOT_FOUND", "organizationNotFound").messageKey).toBe("organizationNotFound");
    // @ts-expect-error "organizationNotFund" is not a key under `errors:`.
    expect(new DomainError("NOT_FOUND", "organizationNotFund").messageKey).toBe("organizationNotFund");
    // @ts-expect-error "field.requird" is not a key under `errors:`.
    expect(errorKey("field.requird")).toBe("field.requird");
  });
});

import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { routeFamilyClassifier } from "./route-family.server";

const familyOf = routeFamilyClassifier();
const FAMILY = /^(rpc\.[A-Za-z]+(\.[A-Za-z]+)+|rpc\.unknown|page|data|api|asset|health|metrics|other)$/;

describe("route families", () => {
  it("name a procedure only when the router has it, and never carry an id", () => {
    expect(familyOf("/rpc/apiKey/authenticate")).toBe("rpc.apiKey.authenticate");
    expect(familyOf("/rpc/support/auditLog/list")).toBe("rpc.support.auditLog.list");
    expect(familyOf(`/rpc/apiKey/${randomUUID()}`)).toBe("rpc.unknown");
    expect(familyOf("/rpc/apiKey/authenticate/")).toBe("rpc.unknown");
    expect(familyOf(`/api/organizations/${randomUUID()}/logos/${randomUUID()}`)).toBe("api");
    expect(familyOf("/dashboard/organization-settings/api-keys")).toBe("page");
    expect(familyOf("/dashboard/organization-settings/api-keys.data")).toBe("data");
    expect(familyOf("/assets/root-abc123.js")).toBe("asset");
    expect(familyOf("/favicon.svg")).toBe("asset");
    expect(familyOf("/healthz")).toBe("health");
    expect(familyOf("/ping")).toBe("health");
    expect(familyOf("/metrics")).toBe("metrics");
    expect(familyOf("-")).toBe("other");
  });

  it("come from the fixed set for any path a caller can send", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), fc.constantFrom("", "/", "/rpc/", "/api/", "/assets/"), (tail, head) => {
        expect(familyOf(`${head}${tail}`.slice(0, 256))).toMatch(FAMILY);
      }),
      { numRuns: 500 },
    );
  });
});

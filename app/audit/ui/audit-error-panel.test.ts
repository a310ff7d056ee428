import { describe, expect, it } from "vitest";
import { auditLogWayBack } from "./audit-error-panel";

const answered = (status: number) => ({ status, statusText: "", internal: false, data: {} });
const LOG = "/dashboard/organization-settings/audit-log";

describe("the way back from a failed audit page", () => {
  it("keeps the filters when only the event or the page position was wrong", () => {
    expect(auditLogWayBack(answered(404), LOG, "?action=api_key.rotated&event=e1&cursor=c1&perPage=50")).toBe(
      `${LOG}?action=api_key.rotated&perPage=50`,
    );
    expect(auditLogWayBack(answered(404), LOG, "?event=e1")).toBe(LOG);
  });

  it("leads to the plain log from a URL it cannot read, and nowhere when the log itself is refused", () => {
    expect(auditLogWayBack(answered(400), LOG, "?from=yesterday")).toBe(LOG);
    expect(auditLogWayBack(answered(403), LOG, "")).toBeNull();
    expect(auditLogWayBack(new Error("boom"), LOG, "")).toBeNull();
  });
});

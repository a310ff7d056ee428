// The CSV cell rules: RFC 4180 quoting, NULL apart from empty text, formulas defused.
import { describe, expect, it } from "vitest";
import { csvCell } from "~/audit/export/csv-writer";

describe("csvCell", () => {
  it("quotes only where RFC 4180 needs it, keeps empty text apart from NULL, and defuses formulas", () => {
    expect(csvCell(null)).toBe("");
    expect(csvCell("")).toBe('""');
    expect(csvCell("plain")).toBe("plain");
    expect(csvCell('say "hi", then\nleave')).toBe('"say ""hi"", then\nleave"');
    expect(csvCell("=HYPERLINK(1)")).toBe("'=HYPERLINK(1)");
    expect(csvCell("@SUM(1,2)")).toBe(`"'@SUM(1,2)"`);
    expect(csvCell("\tx")).toBe("'\tx");
    expect(csvCell("\rx")).toBe(`"'\rx"`);
  });
});

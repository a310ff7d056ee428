import { describe, expect, it } from "vitest";
import { acceptsHtml } from "./accepts-html";

const accepts = (accept?: string) => acceptsHtml(new Headers(accept === undefined ? {} : { accept }));

describe("acceptsHtml", () => {
  it("is true for what browsers send when they open a page or follow a link", () => {
    expect(accepts("text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8")).toBe(true);
    expect(accepts("TEXT/HTML")).toBe(true);
    expect(accepts("application/json, text/html;q=0.5")).toBe(true);
  });

  it("is false for programs: JSON, anything, nothing, or HTML refused", () => {
    expect(accepts("application/json")).toBe(false);
    expect(accepts("*/*")).toBe(false);
    expect(accepts()).toBe(false);
    expect(accepts("text/*")).toBe(false);
    expect(accepts("text/html;q=0, application/json")).toBe(false);
    expect(accepts("text/html-fragment")).toBe(false);
  });
});

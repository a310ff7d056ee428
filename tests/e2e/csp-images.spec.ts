// The pages' images under the Content-Security-Policy (docs/decisions/0037-health-readiness-and-
// drain.md): images from our own origin and data: URIs only. The uploaded logo (served from our
// origin) shows, and the fixture fails the test on any CSP violation, so this is what the app
// really needs; nothing from another https: host is allowed any more.
import { randomUUID } from "node:crypto";
import { IMAGES } from "../images";
import { expect, test } from "./fixtures";
import { createOrganization, signUp } from "./helpers";

test("an uploaded logo shows under img-src 'self' data:, in English and German, on a desktop and a phone", async ({ page }) => {
  await signUp(page);
  const name = `Pictured ${randomUUID().slice(0, 6)}`;
  await createOrganization(page, name);
  const settings = await page.goto("/dashboard/organization-settings");
  const policy = settings!.headers()["content-security-policy"] ?? "";
  expect(policy.split("; ").filter((directive) => directive.startsWith("img-src"))).toEqual(["img-src 'self' data:"]);

  await page.getByLabel("Upload a new logo").setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: IMAGES.png });
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Settings saved.")).toBeVisible();
  const logo = page.getByRole("img", { name: `Logo of ${name}` });
  await expect(logo).toBeVisible();
  // Loaded, not a broken image: the browser decoded the 1x1 PNG.
  await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);

  for (const [language, viewport] of [
    ["en", { width: 1280, height: 800 }],
    ["de", { width: 390, height: 844 }],
  ] as const) {
    await page.setViewportSize(viewport);
    await page.goto(`/dashboard/organization-settings?lng=${language}`);
    await expect(page.getByRole("img", { name: language === "en" ? `Logo of ${name}` : new RegExp(name) })).toBeVisible();
    await page.screenshot({ path: `test-results/csp-images-${language}-${viewport.width}.png`, fullPage: false });
  }
});

import { test } from "./fixtures";
import { demo, signIn } from "./helpers";

test.skip(!process.env.LOOK, "look");
const pages = (process.env.LOOK_PAGES ?? "/dashboard").split(",");
for (const lng of ["de", "en"]) {
  for (const [vp, size] of [["desktop", { width: 1280, height: 800 }], ["phone", { width: 390, height: 844 }]] as const) {
    test(`look ${lng} ${vp}`, async ({ page }) => {
      await page.setViewportSize(size);
      if (process.env.LOOK_DARK) await page.emulateMedia({ colorScheme: "dark" });
      await signIn(page, demo.acmeOwner);
      for (const path of pages) {
        await page.goto(`${path}${path.includes("?") ? "&" : "?"}lng=${lng}`);
        await page.waitForLoadState("networkidle");
        await page.screenshot({ path: `/tmp/h4shots/${lng}-${vp}${path.replace(/[/?=&]/g, "_")}.png`, fullPage: vp === "phone" ? false : true });
      }
    });
  }
}

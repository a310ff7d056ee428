import { expect, test } from "./fixtures";
import { demo, signIn } from "./helpers";

test.describe("language", () => {
  test("the language switch changes the UI and the choice persists across pages", async ({ page, context }) => {
    await page.goto("/login");
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await page.getByRole("link", { name: "Deutsch" }).click();
    await expect(page.getByRole("heading", { name: "Bei Ihrem Konto anmelden" })).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    const cookies = await context.cookies();
    expect(cookies.find((c) => c.name === "lng")?.value).toBe("de");

    // Without ?lng: the cookie keeps German.
    await page.getByRole("link", { name: "Jetzt erstellen" }).click();
    await expect(page).toHaveURL(/\/signup$/);
    await expect(page.getByRole("heading", { name: "Erstellen Sie Ihr Konto" })).toBeVisible();
    await expect(page.getByLabel("Passwort wiederholen")).toBeVisible();

    await page.getByRole("link", { name: "English" }).click();
    await expect(page.getByRole("heading", { name: "Create your account" })).toBeVisible();
    await page.goto("/login");
    await expect(page.getByRole("heading", { name: "Sign in to your account" })).toBeVisible();
  });

  test("signed in: German dashboard, navigation and validation messages", async ({ page }) => {
    await signIn(page, demo.acmeMember);
    await page.getByRole("link", { name: "Deutsch" }).first().click();
    const nav = page.getByRole("navigation", { name: "Hauptnavigation" });
    await expect(nav.getByRole("link", { name: "Übersicht" })).toBeVisible();
    await expect(page.getByRole("complementary").getByRole("combobox", { name: "Aktive Organisation" })).toHaveValue(/.+/);
    await nav.getByRole("link", { name: "Sicherheit" }).click();
    await expect(page).toHaveURL(/\/dashboard\/account\/security$/);
    await expect(page.getByRole("heading", { name: "Zwei-Faktor-Authentifizierung" })).toBeVisible();
  });

  test("?lng=de selects German and sets the cookie; Accept-Language is honoured", async ({ page, context, browser }) => {
    const response = await page.goto("/signup?lng=de");
    expect(await response?.headerValue("set-cookie")).toContain("lng=de");
    expect((await context.cookies()).find((c) => c.name === "lng")?.value).toBe("de");
    await expect(page.getByRole("heading", { name: "Erstellen Sie Ihr Konto" })).toBeVisible();

    const german = await browser.newContext({ locale: "de-DE" });
    const germanPage = await german.newPage();
    await germanPage.goto("/login");
    await expect(germanPage.getByRole("heading", { name: "Bei Ihrem Konto anmelden" })).toBeVisible();
    await german.close();
  });

  test("a tampered lng cookie or parameter falls back to English without an error", async ({ page, context, request }) => {
    await context.addCookies([{ name: "lng", value: "xx%3Cscript%3E", url: "http://localhost:3210" }]);
    const response = await page.goto("/login?lng=%22%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E");
    expect(response?.status()).toBe(200);
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await expect(page.getByRole("heading", { name: "Sign in to your account" })).toBeVisible();

    for (const value of ["fr", "de-DE;", "../../etc/passwd", "e".repeat(5000)]) {
      const raw = await request.get("/login", { headers: { cookie: `lng=${value}`, "accept-language": "en" } });
      expect(raw.status()).toBe(200);
      expect(await raw.text()).toContain('lang="en"');
    }
  });
});

test("an error page after a failed form action stays in the chosen language", async ({ page }) => {
  // When an action throws, the root loader's data is missing; the page must keep its language.
  await signIn(page, demo.acmeMember);
  await page.goto("/dashboard?lng=de");
  await page.evaluate(() => {
    const form = document.createElement("form");
    form.method = "post";
    form.action = "/dashboard?index";
    form.innerHTML = '<input name="intent" value="switch"><input name="organizationId" value="00000000-0000-4000-8000-000000000000">';
    document.body.append(form);
    form.submit();
  });
  await expect(page.getByText("Diese Organisation existiert nicht.")).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("lang", "de", { timeout: 2_000 });
  await expect(page.getByRole("heading", { name: "Seite nicht gefunden" })).toBeVisible({ timeout: 2_000 });
});

import { randomUUID } from "node:crypto";
import { expect, test } from "./fixtures";
import { createOrganization, demo, rpc, signIn, signUp } from "./helpers";

test.describe("organizations", () => {
  test("create two organizations and switch between them", async ({ page }) => {
    await signUp(page);
    // The sidebar's switcher (desktop); the phone menu has its own copy.
    const switcher = page.getByRole("complementary").getByRole("combobox", { name: "Active organization" });
    const suffix = randomUUID().slice(0, 6);
    await createOrganization(page, `Alpha ${suffix}`);
    await createOrganization(page, `Beta ${suffix}`, `beta-${suffix}`);

    // The newest organization is active; the other can be switched to from the list…
    await expect(page.getByTestId("active-organization")).toHaveText(`Beta ${suffix}`);
    await expect(page.getByText(`/beta-${suffix}`)).toBeVisible();
    await page.getByRole("button", { name: `Switch to Alpha ${suffix}` }).click();
    await expect(page.getByTestId("active-organization")).toHaveText(`Alpha ${suffix}`);

    // …or with the switcher in the sidebar.
    await switcher.selectOption({ label: `Beta ${suffix}` });
    await expect(page.getByTestId("active-organization")).toHaveText(`Beta ${suffix}`);

    // Pages for "the active organization" follow the switch.
    await page.getByRole("complementary").getByRole("link", { name: "Organization settings" }).click();
    await expect(page.getByLabel("Name", { exact: true })).toHaveValue(`Beta ${suffix}`);
    await switcher.selectOption({ label: `Alpha ${suffix}` });
    await expect(page.getByTestId("active-organization")).toHaveText(`Alpha ${suffix}`);
    await page.goto("/dashboard/organization-settings");
    await expect(page.getByLabel("Name", { exact: true })).toHaveValue(`Alpha ${suffix}`);
    await page.goto("/dashboard/organization-settings/members");
    await expect(page.getByRole("cell", { name: "Owner" })).toBeVisible();
  });

  test("creating an organization validates the name and refuses a taken slug", async ({ page }) => {
    await signUp(page);
    await page.goto("/dashboard/organizations/new");
    await page.getByLabel("Organization name").fill("Copycat");
    await page.getByLabel("Slug (optional)").fill("acme");
    await page.getByRole("button", { name: "Create organization" }).click();
    await expect(page.getByText("This slug is already in use.")).toBeVisible();
    await expect(page).toHaveURL(/\/organizations\/new$/);
    await page.getByLabel("Slug (optional)").fill("Not A Slug!");
    await page.getByRole("button", { name: "Create organization" }).click();
    await expect(page.getByText(/Use lowercase letters, digits and hyphens/)).toBeVisible();
  });

  test("switching to an organization that does not exist is 404, to someone else's is 403", async ({ page, browser }) => {
    // Globex's id, as its owner sees it.
    const globexContext = await browser.newContext();
    const globexPage = await globexContext.newPage();
    await signIn(globexPage, demo.globexOwner);
    const globex = await rpc(globexPage.request, "organization/list", {});
    await globexContext.close();
    const globexId = (globex.json as { id: string; slug: string }[]).find((o) => o.slug === "globex")?.id;
    expect(globexId).toBeTruthy();

    await signIn(page, demo.acmeAdmin);
    const missing = await page.request.post("/dashboard?index", {
      form: { intent: "switch", organizationId: randomUUID() },
      maxRedirects: 0,
    });
    expect(missing.status()).toBe(404);
    const foreign = await page.request.post("/dashboard?index", { form: { intent: "switch", organizationId: globexId! }, maxRedirects: 0 });
    expect(foreign.status()).toBe(403);
    expect(await foreign.text()).toContain("You are not a member of this organization.");
    const malformed = await page.request.post("/dashboard?index", {
      form: { intent: "switch", organizationId: "not-a-uuid" },
      maxRedirects: 0,
    });
    expect(malformed.status()).toBe(404);
    // Nothing changed.
    await page.goto("/dashboard");
    await expect(page.getByTestId("active-organization")).toHaveText("Acme");
  });
});

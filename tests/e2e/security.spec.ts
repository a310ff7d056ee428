import { randomUUID } from "node:crypto";
import { expect, test } from "./fixtures";
import { demo, rpc, signIn } from "./helpers";

test.describe("HTTP boundary", () => {
  test("cross-site form POSTs are refused with 403", async ({ page, baseURL }) => {
    const ownOrigin = new URL(baseURL!).origin;
    await signIn(page, demo.acmeMember);
    const crossSiteHeaders: Record<string, string>[] = [
      { "sec-fetch-site": "cross-site" },
      { "sec-fetch-site": "same-site" },
      { "sec-fetch-site": "cross-site", origin: ownOrigin },
    ];
    for (const headers of crossSiteHeaders) {
      const response = await page.request.post("/dashboard/organizations/new", { form: { name: "Evil Corp" }, headers, maxRedirects: 0 });
      expect(response.status(), JSON.stringify(headers)).toBe(403);
    }
    // The same request from our own origin works (redirects to the dashboard).
    const own = await page.request.post("/dashboard/organizations/new", {
      form: { name: "Own Corp" },
      headers: { origin: ownOrigin, "sec-fetch-site": "same-origin" },
      maxRedirects: 0,
    });
    expect(own.status()).toBe(302);
    const list = await rpc(page.request, "organization/list", {});
    expect((list.json as { name: string }[]).map((o) => o.name)).not.toContain("Evil Corp");
    // Sign-out is a write too.
    const logout = await page.request.post("/logout", { headers: { "sec-fetch-site": "cross-site" }, maxRedirects: 0 });
    expect(logout.status()).toBe(403);
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test("a form POST with a foreign Origin header is refused with 403", async ({ page }) => {
    await signIn(page, demo.acmeMember);
    // The server answers before React Router's own origin check (which would say 400).
    const response = await page.request.post("/dashboard/organizations/new", {
      form: { name: "Evil Corp" },
      headers: { origin: "https://evil.example" },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(403);
    expect(await response.text()).toContain("Cross-site requests are not allowed.");
    const list = await rpc(page.request, "organization/list", {});
    expect((list.json as { name: string }[]).map((o) => o.name)).not.toContain("Evil Corp");
  });

  test("the raw organization routes of the auth layer answer 404 for every method", async ({ request }) => {
    for (const path of [
      "/api/auth/organization/invite-member",
      "/api/auth/organization/list",
      "/api/auth/organization/",
      "/api/auth/organization",
    ]) {
      expect((await request.get(path)).status(), `GET ${path}`).toBe(404);
      expect((await request.post(path, { data: {} })).status(), `POST ${path}`).toBe(404);
      expect((await request.delete(path)).status(), `DELETE ${path}`).toBe(404);
      expect((await request.fetch(path, { method: "PROPFIND" })).status(), `PROPFIND ${path}`).toBe(404);
    }
  });

  test("unknown pages answer 404 with the error page", async ({ page }) => {
    const response = await page.goto("/no/such/page");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  });

  test("RPC: malformed body 400, no session 401, unknown procedure 404", async ({ request }) => {
    const notJson = await request.post("/rpc/organization/list", {
      headers: { "content-type": "application/json" },
      data: Buffer.from("{not json"),
    });
    expect(notJson.status()).toBe(400);
    expect((await notJson.json()).json.code).toBe("BAD_REQUEST");

    const anonymous = await rpc(request, "organization/list", {});
    expect(anonymous.status).toBe(401);
    expect(anonymous.json.code).toBe("UNAUTHORIZED");

    const unknown = await rpc(request, "organization/nope", {});
    expect(unknown.status).toBe(404);
  });

  test("RPC with a session: list, wrong shape 400, cross-site 403, unknown organization 404, foreign organization 403", async ({
    page,
    browser,
  }) => {
    const globexContext = await browser.newContext();
    const globexPage = await globexContext.newPage();
    await signIn(globexPage, demo.globexOwner);
    const globexList = await rpc(globexPage.request, "organization/list", {});
    await globexContext.close();
    expect(globexList.status).toBe(200);
    const globex = (globexList.json as { id: string; slug: string; role: string }[]).find((o) => o.slug === "globex");
    expect(globex?.role).toBe("owner");

    await signIn(page, demo.acmeOwner);
    const list = await rpc(page.request, "organization/list", {});
    expect(list.status).toBe(200);
    expect(list.json).toEqual([expect.objectContaining({ name: "Acme", slug: "acme", role: "owner", id: expect.any(String) })]);

    const wrongShape = await rpc(page.request, "organization/list", { unexpected: true });
    expect(wrongShape.status).toBe(400);
    expect(wrongShape.json.code).toBe("BAD_REQUEST");

    const crossSite = await rpc(page.request, "organization/list", {}, { origin: "https://evil.example" });
    expect(crossSite.status).toBe(403);
    expect(crossSite.json.code).toBe("FORBIDDEN");

    const missing = await rpc(page.request, "organization/setActive", { organizationId: randomUUID() });
    expect(missing.status).toBe(404);
    expect(missing.json.code).toBe("NOT_FOUND");

    const foreign = await rpc(page.request, "organization/setActive", { organizationId: globex!.id });
    expect(foreign.status).toBe(403);
    expect(foreign.json.code).toBe("FORBIDDEN");

    const own = await rpc(page.request, "organization/setActive", { organizationId: list.json[0].id });
    expect(own.status).toBe(200);
  });
});

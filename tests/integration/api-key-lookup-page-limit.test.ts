// The lookup page's rate limit over HTTP: when a person's budget is spent, the page answers 429
// with the translated sentence and with Retry-After, as apiKey.lookup does. The page's own
// Cache-Control used to replace every header of the action's answer, so the page's 429 came
// without Retry-After.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessionCookieName } from "~/auth/cookies.server";
import { consume } from "~/lib/rate-limit.server";
import { memberOfNewOrganization } from "../api-key-factories";
import { startInProcessServer, type InProcessServer } from "../app-server";

const PAGE = "/dashboard/organization-settings/api-keys/lookup";
let server: InProcessServer;
beforeAll(async () => {
  server = await startInProcessServer();
});
afterAll(() => server.close());

describe("the lookup page's rate limit", () => {
  it("answers 429 with Retry-After and the translated sentence once the person's budget is spent, and keeps it out of caches", async () => {
    const owner = await memberOfNewOrganization("owner");
    const post = (language: string) =>
      fetch(`${server.origin}${PAGE}`, {
        method: "POST",
        headers: {
          cookie: `${sessionCookieName()}=${owner.token}`,
          "content-type": "application/x-www-form-urlencoded",
          "sec-fetch-site": "same-origin",
          accept: "text/html",
          "accept-language": language,
        },
        body: new URLSearchParams({ secret: "sk_not_a_key" }),
      });
    const allowed = await post("en");
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get("retry-after")).toBeNull();
    expect(allowed.headers.get("cache-control")).toBe("no-store");
    // The other 29 of the person's 30 a minute.
    for (let i = 1; i < 30; i++) await consume("apiKey.lookup.user", owner.user.id);
    for (const [language, sentence] of [
      ["en", "Too many attempts."],
      ["de", "Zu viele Versuche."],
    ]) {
      const limited = await post(language!);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(limited.headers.get("cache-control")).toBe("no-store");
      expect(await limited.text()).toContain(sentence);
    }
  });
});

// A form posted to the keys page at a URL whose filters or history cursor the page refuses
// (`?q=%00`, `?scope=nope`, a repeated filter, a bad revokedCursor): the answer is the page's
// translated 400, so the post must not have changed anything. It used to revoke, rotate or issue
// the key first and then answer "Invalid request" (the page's loader refusing the URL after the
// action had run), a change the person was told had been refused.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessionCookieName } from "~/auth/cookies.server";
import { prisma } from "~/db.server";
import { memberOfNewOrganization } from "../api-key-factories";
import { startInProcessServer, type InProcessServer } from "../app-server";
import { issueKey } from "../domain-calls";

const PATH = "/dashboard/organization-settings/api-keys";
let server: InProcessServer;
beforeAll(async () => {
  server = await startInProcessServer();
});
afterAll(() => server.close());

describe("a post to the keys page at a URL it refuses", () => {
  it("is a translated 400 (English and German) that revokes, rotates and issues nothing and records nothing", async () => {
    const { organization, token, auth } = await memberOfNewOrganization("owner");
    const { key } = await issueKey(auth, organization.id, { name: "deploy", scopes: ["audit:view"] });
    const eventsBefore = await prisma.auditEvent.count({ where: { organizationId: organization.id } });
    const post = (query: string, form: Record<string, string>, language = "en") =>
      fetch(`${server.origin}${PATH}?${query}`, {
        method: "POST",
        redirect: "manual",
        headers: {
          cookie: `${sessionCookieName()}=${token}`,
          origin: server.origin,
          "content-type": "application/x-www-form-urlencoded",
          "accept-language": language,
        },
        body: new URLSearchParams(form),
      });
    const cases: [string, Record<string, string>, string, string][] = [
      ["q=%00", { intent: "revoke", keyId: key.id }, "en", "Search with plain text"],
      ["scope=nope", { intent: "rotate", keyId: key.id }, "en", "Filter by one of the scopes"],
      ["state=active&state=revoked", { intent: "revoke", keyId: key.id }, "de", "Geben Sie jeden Filter"],
      [
        "revokedCursor=junk",
        { intent: "issue", name: "another", scopes: "audit:view" },
        "en",
        "The link to this page of revoked keys is invalid.",
      ],
    ];
    for (const [query, form, language, message] of cases) {
      const response = await post(query, form, language);
      expect(response.status, query).toBe(400);
      expect(await response.text(), query).toContain(message);
    }
    const keys = await prisma.apiKey.findMany({
      where: { organizationId: organization.id },
      select: { id: true, revokedAt: true, secretHash: true },
    });
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ id: key.id, revokedAt: null });
    expect(await prisma.auditEvent.count({ where: { organizationId: organization.id } })).toBe(eventsBefore);

    // The same post at the page's own URL still works.
    expect((await post("q=deploy", { intent: "revoke", keyId: key.id })).status).toBe(200);
    expect((await prisma.apiKey.findFirstOrThrow({ where: { organizationId: organization.id, id: key.id } })).revokedAt).not.toBeNull();
  });
});

import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { i18nextMiddleware } from "~/i18n/i18next.server";
import { parseForm } from "./forms.server";

const schema = z.object({ name: z.string({ error: "field.required" }), scopes: z.array(z.string()).max(5) });

/** The action's arguments for a POST of `body`, with the request's language settled as the
 * i18n middleware settles it. */
async function posted(body: string, headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" }) {
  const request = new Request("http://localhost/x", { method: "POST", headers, body });
  const context = new RouterContextProvider();
  await i18nextMiddleware({ request, context, params: {}, unstable_pattern: "" } as never, async () => new Response());
  return { request, context };
}

/** What parseForm threw: the HTTP error a route hands to its ErrorBoundary. */
async function refusal(args: Awaited<ReturnType<typeof posted>>) {
  const thrown: unknown = await parseForm(args, schema).then(
    () => null,
    (error: unknown) => error,
  );
  return thrown as { init: { status: number }; data: { code: string; message: string } } | null;
}

describe("parseForm", () => {
  it("drops fields with absurd list indices instead of building lists of that length", async () => {
    const { submission } = await parseForm(await posted("name=k&scopes[150000000]=x&scopes[0][99999999]=y"), schema);
    expect(submission.status).toBe("success");
    expect(submission.status === "success" && submission.value).toEqual({ name: "k", scopes: [] });
  });

  it("keeps ordinary list fields", async () => {
    const { submission } = await parseForm(await posted("name=k&scopes[0]=a&scopes[1]=b&scopes=c"), schema);
    expect(submission.status === "success" && submission.value.scopes.length).toBeGreaterThan(0);
  });

  it("drops conform's own fields and names nested deeper than any form's, which conform cannot read", async () => {
    const deep = `scopes${"[0]".repeat(3_000)}`;
    const body = `name=k&__state__=x&__intent__=%7B%22validated%22%3A1%7D&${deep}=z&${"a.".repeat(8_000)}b=1`;
    const { submission } = await parseForm(await posted(body), schema);
    expect(submission.status === "success" && submission.value).toEqual({ name: "k", scopes: [] });
  });

  it("keeps nested names up to the limit: the forms' own (`webhook.url`), and 8 levels but not 9", async () => {
    const nested = z.object({ webhook: z.object({ url: z.string() }), a: z.unknown(), b: z.unknown() });
    const body = "webhook.url=https%3A%2F%2Fx.example&a.1.2.3.4.5.6.7.8=kept&b.1.2.3.4.5.6.7.8.9=dropped";
    const { submission } = await parseForm(await posted(body), nested);
    expect(submission.status === "success" && submission.value).toEqual({
      webhook: { url: "https://x.example" },
      a: { 1: { 2: { 3: { 4: { 5: { 6: { 7: { 8: "kept" } } } } } } } },
    });
  });

  it("refuses a body that is not a form with a translated 400, before any field is read", async () => {
    const json = await refusal(await posted(JSON.stringify({ name: "k" }), { "content-type": "application/json" }));
    expect(json).toMatchObject({
      init: { status: 400 },
      data: { code: "BAD_REQUEST", message: expect.stringMatching(/form could not be read/) },
    });
    const brokenMultipart = await refusal(
      await posted("--nope\r\nnot a part", { "content-type": "multipart/form-data; boundary=other", "accept-language": "de" }),
    );
    expect(brokenMultipart).toMatchObject({
      init: { status: 400 },
      data: { message: expect.stringMatching(/Formular konnte nicht gelesen/) },
    });
  });

  it("refuses more fields than any form has with a 400, however many there are", async () => {
    const many = await refusal(await posted(Array.from({ length: 40_000 }, () => "x=1").join("&")));
    expect(many).toMatchObject({ init: { status: 400 }, data: { message: expect.stringMatching(/more fields than any form/) } });
    expect(await refusal(await posted(`name=k&${Array.from({ length: 400 }, () => "scopes=a").join("&")}`))).toBeNull();
  });
});

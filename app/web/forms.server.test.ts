import { describe, expect, it } from "vitest";
import { z } from "zod";
import { parseForm } from "./forms.server";

const schema = z.object({ name: z.string({ error: "field.required" }), scopes: z.array(z.string()).max(5) });
const post = (body: string) =>
  new Request("http://localhost/x", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body });

describe("parseForm", () => {
  it("drops fields with absurd list indices instead of building lists of that length", async () => {
    const { submission } = await parseForm(post("name=k&scopes[150000000]=x&scopes[0][99999999]=y"), schema);
    expect(submission.status).toBe("success");
    expect(submission.status === "success" && submission.value).toEqual({ name: "k", scopes: [] });
  });

  it("keeps ordinary list fields", async () => {
    const { submission } = await parseForm(post("name=k&scopes[0]=a&scopes[1]=b&scopes=c"), schema);
    expect(submission.status === "success" && submission.value.scopes.length).toBeGreaterThan(0);
  });
});

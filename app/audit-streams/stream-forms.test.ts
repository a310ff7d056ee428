import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createStreamFormSchema, editStreamFormSchema, streamActionFormSchema } from "./stream-forms";

const form = (entries: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(entries)) data.append(name, value);
  return data;
};

const SECRET = `whsec_${Buffer.alloc(32, 7).toString("base64")}`;

describe("createStreamFormSchema", () => {
  it("reads only the chosen kind's group, as the form without JavaScript sends every group", () => {
    const submission = parseWithZod(
      form({
        intent: "create",
        name: " SIEM ",
        kind: "webhook",
        "webhook.url": "https://siem.example.com/hook",
        "webhook.secret": "",
        "splunk.url": "not a url",
        "splunk.token": "",
        "s3.bucket": "Bad Bucket",
        start: "now",
        startDate: "",
      }),
      { schema: createStreamFormSchema },
    );
    expect(submission.status).toBe("success");
    if (submission.status !== "success") return;
    expect(submission.value).toEqual({
      name: "SIEM",
      start: { from: "now" },
      destination: { kind: "webhook", url: "https://siem.example.com/hook" },
    });
  });

  it("reports a bad field under its group's name, so it shows beside the field", () => {
    const submission = parseWithZod(
      form({ intent: "create", name: "Splunk", kind: "splunk", "splunk.url": "ftp://x", "splunk.token": "has spaces", "webhook.url": "" }),
      { schema: createStreamFormSchema },
    );
    expect(submission.status).toBe("error");
    const errors = submission.reply().error ?? {};
    expect(errors["splunk.url"]).toEqual(["auditStream.urlInvalid"]);
    expect(errors["splunk.token"]).toEqual(["auditStream.tokenInvalid"]);
    expect(errors["webhook.url"]).toBeUndefined();
  });

  it("refuses an unknown kind and a missing or impossible replay day", () => {
    const unknownKind = parseWithZod(form({ intent: "create", name: "x", kind: "ftp" }), { schema: createStreamFormSchema });
    expect(unknownKind.reply().error?.kind).toEqual(["auditStreamChange.kindUnknown"]);
    const noDay = parseWithZod(
      form({ intent: "create", name: "x", kind: "webhook", "webhook.url": "https://a.example", start: "date", startDate: "" }),
      { schema: createStreamFormSchema },
    );
    expect(noDay.reply().error?.startDate).toEqual(["field.required"]);
    const badDay = parseWithZod(
      form({ intent: "create", name: "x", kind: "webhook", "webhook.url": "https://a.example", start: "date", startDate: "2026-02-30" }),
      { schema: createStreamFormSchema },
    );
    expect(badDay.reply().error?.startDate).toEqual(["auditStreamChange.startDateInvalid"]);
    const future = parseWithZod(
      form({ intent: "create", name: "x", kind: "webhook", "webhook.url": "https://a.example", start: "date", startDate: "2999-01-01" }),
      { schema: createStreamFormSchema },
    );
    expect(future.reply().error?.startDate).toEqual(["auditStreamChange.startDateInvalid"]);
  });

  it("carries a replay day and a given signing secret, and a huge token is refused", () => {
    const replay = parseWithZod(
      form({
        intent: "create",
        name: "x",
        kind: "webhook",
        "webhook.url": "https://a.example",
        "webhook.secret": SECRET,
        start: "date",
        startDate: "2026-01-15",
      }),
      { schema: createStreamFormSchema },
    );
    expect(replay.status === "success" && replay.value).toEqual({
      name: "x",
      start: { from: "date", date: "2026-01-15" },
      destination: { kind: "webhook", url: "https://a.example", secret: SECRET },
    });
    const huge = parseWithZod(form({ intent: "create", name: "x", kind: "datadog", "datadog.apiKey": "a".repeat(100_000) }), {
      schema: createStreamFormSchema,
    });
    expect(huge.reply().error?.["datadog.apiKey"]).toContain("auditStream.apiKeyInvalid");
  });
});

describe("the S3 group", () => {
  it("reads the path-style checkbox", () => {
    const fields = { intent: "create", name: "Bucket", kind: "s3", "s3.region": "us-east-1", "s3.bucket": "audit-logs" };
    const credentials = { "s3.accessKeyId": "AKIAEXAMPLE", "s3.secretAccessKey": "secret-access-key" };
    const ticked = parseWithZod(form({ ...fields, ...credentials, "s3.forcePathStyle": "on" }), { schema: createStreamFormSchema });
    expect(ticked.status === "success" && ticked.value.destination).toMatchObject({ kind: "s3", forcePathStyle: true });
    const unticked = parseWithZod(form({ ...fields, ...credentials }), { schema: createStreamFormSchema });
    expect(unticked.status === "success" && "forcePathStyle" in unticked.value.destination).toBe(false);
  });
});

describe("editStreamFormSchema", () => {
  it("keeps a credential left empty out of the change (the stored one stays)", () => {
    const submission = parseWithZod(
      form({
        intent: "update",
        version: "3",
        name: "Splunk",
        "destination.url": "https://splunk.example.com:8088",
        "destination.token": "",
      }),
      { schema: editStreamFormSchema("splunk") },
    );
    expect(submission.status === "success" && submission.value).toEqual({
      version: 3,
      name: "Splunk",
      // Emptied settings are sent as "" (the service clears them); the token is left out (kept).
      destination: { url: "https://splunk.example.com:8088", index: "", sourcetype: "" },
    });
  });

  it("still checks a credential that is typed, and requires the settings", () => {
    const submission = parseWithZod(form({ intent: "update", version: "1", name: "S3", "destination.accessKeyId": "!!" }), {
      schema: editStreamFormSchema("s3"),
    });
    const errors = submission.reply().error ?? {};
    expect(errors["destination.accessKeyId"]).toEqual(["auditStream.accessKeyInvalid"]);
    expect(errors["destination.bucket"]).toEqual(["field.required"]);
  });

  it("sits with the page's other actions in one union", () => {
    const schema = z.union([editStreamFormSchema("webhook"), streamActionFormSchema]);
    const pause = parseWithZod(form({ intent: "pause", version: "2" }), { schema });
    expect(pause.status === "success" && pause.value).toEqual({ intent: "pause", version: 2 });
    const restart = parseWithZod(form({ intent: "restart", version: "2", start: "date", startDate: "2026-03-01" }), { schema });
    expect(restart.status === "success" && restart.value).toEqual({
      intent: "restart",
      version: 2,
      start: { from: "date", date: "2026-03-01" },
    });
    const edit = parseWithZod(form({ intent: "update", version: "2", name: "W", "destination.url": "https://w.example" }), { schema });
    expect(edit.status === "success" && edit.value).toEqual({ version: 2, name: "W", destination: { url: "https://w.example" } });
    const s3 = parseWithZod(
      form({ intent: "update", version: "4", name: "B", "destination.region": "eu-west-1", "destination.bucket": "audit-logs" }),
      { schema: editStreamFormSchema("s3") },
    );
    // An unticked box unticks; the two keys stay as stored.
    expect(s3.status === "success" && s3.value.destination).toEqual({
      region: "eu-west-1",
      bucket: "audit-logs",
      endpoint: "",
      prefix: "",
      forcePathStyle: false,
    });
  });
});

// destinationLabel names a destination in audit details, lists, logs and the owners' mail: nothing
// in it may carry a secret. Hooks such as Zapier's and Slack's carry theirs in the path.
import { describe, expect, it } from "vitest";
import { destinationLabel } from "~/audit-streams/destinations";

const label = (kind: "webhook" | "splunk" | "datadog", url: string) => destinationLabel({ kind, settings: { url } });

describe("destinationLabel", () => {
  it("names a URL by its origin alone, `/…` standing for a path that may carry a secret", () => {
    const zapier = label("webhook", "https://hooks.zapier.com/hooks/catch/123/abcSECRET/");
    expect(zapier).toBe("https://hooks.zapier.com/…");
    expect(zapier).not.toContain("abcSECRET");
    expect(label("webhook", "https://hooks.slack.com/services/T000/B000/XXXXSECRET")).toBe("https://hooks.slack.com/…");
    expect(label("splunk", "https://splunk.example.com:8088/services/collector")).toBe("https://splunk.example.com:8088/…");
  });

  it("leaves out the query string and fragment, and adds nothing for the root", () => {
    expect(label("webhook", "https://siem.example.com/?token=query-secret#frag")).toBe("https://siem.example.com");
    expect(label("datadog", "https://http-intake.logs.datadoghq.eu")).toBe("https://http-intake.logs.datadoghq.eu");
    expect(label("webhook", "https://siem.example.com/hook?token=query-secret")).toBe("https://siem.example.com/…");
  });

  it("names an S3 destination by its bucket and prefix", () => {
    expect(destinationLabel({ kind: "s3", settings: { region: "eu-west-1", bucket: "audit-archive", prefix: "keyledger/" } })).toBe(
      "s3://audit-archive/keyledger/",
    );
  });
});

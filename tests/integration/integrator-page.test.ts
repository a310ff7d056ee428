// The integrator page (/docs/authenticate) against the built app behind the real request edge:
// public in both languages, its examples written for the origin it was asked on, and every
// copy-paste example run as it stands (curl, Node, Python; Go when a Go toolchain is installed)
// against the server with a real key: a 200 with the key's organization, a 401 for a revoked key.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codeSample, SAMPLE_LANGUAGES, type SampleLanguage } from "~/api-keys/ui/integrator-guide/code-samples";
import { memberOfNewOrganization } from "../api-key-factories";
import { startInProcessServer, type InProcessServer } from "../app-server";
import { issueKey, revokeKey } from "../domain-calls";

const run = promisify(execFile);

let server: InProcessServer;
let folder: string;
const key = { active: "", revoked: "", keyId: "", organizationId: "" };

beforeAll(async () => {
  server = await startInProcessServer();
  folder = mkdtempSync(join(tmpdir(), "keyledger-samples-"));
  const owner = await memberOfNewOrganization();
  const organizationId = owner.organization.id;
  const active = await issueKey(owner.auth, organizationId, { name: "samples", scopes: ["organization:read"] });
  const revoked = await issueKey(owner.auth, organizationId, { name: "revoked", scopes: ["organization:read"] });
  await revokeKey(owner.auth, organizationId, revoked.key.id);
  Object.assign(key, { active: active.secret, revoked: revoked.secret, keyId: active.key.id, organizationId });
});

afterAll(async () => {
  await server?.close();
  rmSync(folder, { recursive: true, force: true });
});

async function installed(command: string, versionFlag = "--version"): Promise<boolean> {
  return run(command, [versionFlag]).then(
    () => true,
    () => false,
  );
}

const available: Record<SampleLanguage, boolean> = {
  curl: await installed("curl"),
  node: true,
  python: await installed("python3"),
  go: await installed("go", "version"),
};

/** Runs the page's example in `language` with API_KEY set; what it printed. */
async function runSample(language: SampleLanguage, apiKey: string): Promise<string> {
  const code = codeSample(language, server.origin);
  const env = { ...process.env, API_KEY: apiKey };
  const options = { env, cwd: folder, timeout: 60_000 };
  if (language === "curl") return (await run("bash", ["-c", code], options)).stdout;
  const file = join(folder, { node: "check.mjs", python: "check.py", go: "main.go" }[language]);
  writeFileSync(file, code);
  if (language === "node") return (await run(process.execPath, [file], options)).stdout;
  if (language === "python") return (await run("python3", [file], options)).stdout;
  return (await run("go", ["run", file], { ...options, env: { ...env, GOFLAGS: "-mod=mod", GOCACHE: join(folder, "go-cache") } })).stdout;
}

describe("the examples, run as they stand", () => {
  it("curl, Node and Python are there to run them (the page's first three)", () => {
    expect(available).toMatchObject({ curl: true, node: true, python: true });
  });

  for (const language of SAMPLE_LANGUAGES) {
    it.skipIf(!available[language])(`${language}: 200 with the key's organization, 401 for a revoked key`, async () => {
      const accepted = await runSample(language, key.active);
      if (language === "curl") {
        expect(JSON.parse(accepted.split("\n")[0]!)).toEqual({
          json: { keyId: key.keyId, organizationId: key.organizationId, scopes: ["organization:read"] },
        });
        expect(accepted.trim().split("\n").at(-1)).toBe("200");
      } else {
        expect(accepted).toContain(`200 ${key.organizationId} ${key.keyId}`);
      }
      const refused = await runSample(language, key.revoked);
      expect(refused).toContain(language === "curl" ? '"code":"UNAUTHORIZED"' : "401 UNAUTHORIZED The API key is missing");
    });
  }
});

describe("GET /docs/authenticate", () => {
  const page = async (query: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${server.origin}/docs/authenticate${query}`, { headers: { accept: "text/html", ...headers } });
    return { status: response.status, html: await response.text() };
  };
  /** React escapes text: compare with what the page's HTML holds. */
  const escaped = (text: string) =>
    text.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("'", "&#x27;").replaceAll("<", "&lt;");

  it("is public, in English, with the examples for the origin it was asked on and the link to the document", async () => {
    const { status, html } = await page("");
    expect(status).toBe(200);
    expect(html).toContain('lang="en"');
    expect(html).toContain("Authenticate API keys");
    expect(html).toContain('href="/api/openapi.json"');
    expect(html).toContain(escaped(codeSample("curl", server.origin)));
    expect(html).toContain("Caching answers");
    expect(html).toContain(escaped("\\bsk_(?:[0-9A-Za-z]{73}|[0-9A-Za-z]{49})\\b"));
    // Not signed in: no way "back" to a keys page.
    expect(html).not.toContain("Back to API keys");
  });

  it("is in German when asked", async () => {
    const { status, html } = await page("?lng=de");
    expect(status).toBe(200);
    expect(html).toContain('lang="de"');
    expect(html).toContain("API-Schlüssel prüfen");
    expect(html).toContain("Antworten zwischenspeichern");
    expect(html).toContain("Die Prüfsumme");
  });
});

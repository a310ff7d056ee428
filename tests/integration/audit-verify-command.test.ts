// `npm run audit:verify -- ORGANIZATION [--from] [--to]` as an operator runs it: a real process,
// its exit code and lines (docs/contract.md; docs/decisions/0062-audit-verification.md).
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { chooseDatabase } from "../../scripts/lib/verify-database.ts";
import { asOwner, createdAtOf, sealedOrganization } from "../audit-integrity";

const root = join(import.meta.dirname, "..", "..");
const tsx = join(root, "node_modules", ".bin", "tsx");

async function verify(args: string[], env: Record<string, string | undefined> = {}) {
  const merged: Record<string, string | undefined> = { ...process.env, LOG_LEVEL: "silent", ...env };
  for (const [key, value] of Object.entries(merged)) if (value === undefined) delete merged[key];
  try {
    const { stdout, stderr } = await promisify(execFile)(tsx, ["scripts/audit-verify.ts", ...args], {
      cwd: root,
      env: merged as NodeJS.ProcessEnv,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe("npm run audit:verify", () => {
  it("says intact with the counts and exits 0, by slug or id", async () => {
    const { organization } = await sealedOrganization(2, 2);
    const who = `${organization.name} (${organization.slug})`;
    const expected = { code: 0, stdout: `${who}: intact. 2 digest(s), 4 event(s) checked, 0 pending (not sealed yet).\n`, stderr: "" };
    expect(await verify([organization.slug])).toEqual(expected);
    expect(await verify([organization.id])).toEqual(expected);
  });

  it("names each finding on a line of its own, then a summary, and exits 1", async () => {
    const { organization, events } = await sealedOrganization(3, 2);
    const altered = events[0]![1]!;
    await asOwner("UPDATE audit_events SET actor_id = 'someone-else' WHERE organization_id = $1 AND id = $2", [organization.id, altered]);
    await asOwner("DELETE FROM audit_digests WHERE organization_id = $1 AND sequence = 2", [organization.id]);
    const result = await verify([organization.slug]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr.trimEnd().split("\n")).toEqual([
      `ALTERED   event ${altered} (${await createdAtOf(organization.id, altered)}): its content differs from what digest 1 sealed.`,
      "MISSING   digest 2: removed; the 2 event(s) the log holds in the range it covered cannot be checked.",
      `${organization.name} (${organization.slug}): TAMPERED, 2 finding(s). 2 digest(s), 4 event(s) checked, 0 pending (not sealed yet).`,
    ]);
  });

  it("refuses an unknown organization, bad days and a range the wrong way round with exit 1", async () => {
    expect(await verify(["no-such-organization"])).toEqual({
      code: 1,
      stdout: "",
      stderr: 'No organization with the id or slug "no-such-organization".\n',
    });
    const { organization } = await sealedOrganization(1, 1);
    expect(await verify([organization.slug, "--from", "2026-02-31"])).toMatchObject({
      code: 1,
      stderr: '--from must be a day YYYY-MM-DD between 2000 and 9999, not "2026-02-31".\n',
    });
    expect(await verify([organization.slug, "--from", "2026-03-02", "--to", "2026-03-01"])).toMatchObject({
      code: 1,
      stderr: "--from must not be after --to.\n",
    });
    expect((await verify([])).code).toBe(1);
  });

  it("checks only the digests of the days asked for, and says so when none covers them", async () => {
    const { organization } = await sealedOrganization(1, 1);
    const result = await verify([organization.slug, "--from", "2999-01-01"]);
    expect(result).toMatchObject({
      code: 1,
      stderr: `${organization.name} (${organization.slug}): No digest covers the days asked for: nothing to verify.\n`,
    });
  });

  it("says so when the database does not answer", async () => {
    const result = await verify(["anything"], { DATABASE_URL: "postgresql://nobody:secret@127.0.0.1:1/none" });
    expect(result).toEqual({
      code: 1,
      stdout: "",
      stderr: "The database is not reachable: is it running (`npm start` for the embedded one)?\n",
    });
  });

  it("without DATABASE_URL and no embedded database, says what to set", async () => {
    const result = await verify(["anything"], {
      DATABASE_URL: undefined,
      EMBEDDED_POSTGRES_DIR: join(mkdtempSync(join(tmpdir(), "kl-")), "none"),
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^DATABASE_URL is not set\./);
  });

  it("without DATABASE_URL, uses the embedded database and the signing key npm start keeps beside it", () => {
    const dir = mkdtempSync(join(tmpdir(), "kl-"));
    mkdirSync(join(dir, "postgres"));
    writeFileSync(join(dir, "postgres", "PG_VERSION"), "18\n");
    writeFileSync(join(dir, "audit-signing-key.pem"), "the key\n");
    const env: NodeJS.ProcessEnv = { EMBEDDED_POSTGRES_DIR: join(dir, "postgres"), EMBEDDED_POSTGRES_PORT: "54400" };
    expect(chooseDatabase(env)).toMatchObject({ kind: "embedded", note: expect.stringContaining("127.0.0.1:54400") });
    expect(env.DATABASE_URL).toBe("postgresql://postgres:postgres@127.0.0.1:54400/keyledger");
    expect(env.AUDIT_SIGNING_KEY).toBe("the key\n");
    // A configured key wins over the file.
    const configured: NodeJS.ProcessEnv = { ...env, DATABASE_URL: undefined, AUDIT_SIGNING_KEY: "configured" };
    chooseDatabase(configured);
    expect(configured.AUDIT_SIGNING_KEY).toBe("configured");
  });
});

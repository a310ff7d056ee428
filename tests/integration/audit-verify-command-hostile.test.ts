// `npm run audit:verify` given junk arguments: each ends with exit 1 and one clear line (or the
// usage), never a stack trace, and nothing is written.
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { asOwner, sealedOrganization } from "../audit-integrity";

const root = join(import.meta.dirname, "..", "..");

async function verify(args: string[]) {
  try {
    const { stdout, stderr } = await promisify(execFile)(join(root, "node_modules", ".bin", "tsx"), ["scripts/audit-verify.ts", ...args], {
      cwd: root,
      env: { ...process.env, LOG_LEVEL: "silent" },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** Every organization's events and digests, counted as the owner: a scan of the whole tables is no
 * statement of the app's (the statement check holds the app role's to one organization). */
async function counts() {
  const { rows } = await asOwner("SELECT (SELECT count(*) FROM audit_events) AS events, (SELECT count(*) FROM audit_digests) AS digests");
  return rows[0];
}

describe("npm run audit:verify with junk arguments", () => {
  it("answers each with exit 1 and a line, no stack trace, nothing written", async () => {
    const { organization } = await sealedOrganization(1, 1);
    const before = await counts();
    const cases: string[][] = [
      ["x'; DROP TABLE audit_digests; --"],
      ["%"],
      ["_"],
      ["00000000-0000-0000-0000-000000000000"],
      ["ffffffff-ffff-ffff-ffff-ffffffffffff"],
      ["é".repeat(5000)],
      [organization.slug, "extra"],
      [organization.slug, "--from"],
      [organization.slug, "--from", "yesterday"],
      [organization.slug, "--from", "0000-01-01"],
      [organization.slug, "--to", "2026-02-30"],
      [organization.slug, "--from=2026-01-01", "--from=2026-01-02"],
      [organization.slug, "--unknown"],
      [organization.slug, "-x"],
      ["--", organization.slug, "--from", "2026-01-01"],
    ];
    for (const args of cases) {
      const result = await verify(args);
      const label = args.join(" ").slice(0, 80);
      expect(result.stderr, label).not.toMatch(/\n\s+at |Node\.js v|Error:/);
      expect(result.stderr.trim(), label).not.toBe("");
      expect(result.code, label).toBe(1);
    }
    expect(await counts()).toEqual(before);
    // The slug in SQL's clothes was a value, not SQL: the tables are there and the organization verifies.
    expect(await verify([organization.slug])).toMatchObject({ code: 0 });
  });
});

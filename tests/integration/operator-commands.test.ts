// The operator commands as an operator runs them (real processes, real exit codes):
// `admin:set-plan` and `--help` / unknown options on every command in scripts/.
import { execFile } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { prisma } from "~/db.server";
import { createOrganizationWith, createUser } from "../factories";

const root = join(import.meta.dirname, "..", "..");
const tsx = join(root, "node_modules", ".bin", "tsx");

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function run(script: string, args: string[], env: Record<string, string | undefined> = {}): Promise<Run> {
  const merged: Record<string, string | undefined> = { ...process.env, LOG_LEVEL: "silent", ...env };
  for (const [key, value] of Object.entries(merged)) if (value === undefined) delete merged[key];
  try {
    const { stdout, stderr } = await promisify(execFile)(tsx, [script, ...args], { cwd: root, env: merged as NodeJS.ProcessEnv });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const setPlan = (...args: string[]) => run("scripts/admin-set-plan.ts", args);

async function planEvents(organizationId: string) {
  return prisma.auditEvent.findMany({
    where: { organizationId, action: "billing.plan_changed" },
    select: { actorKind: true, actorId: true, targetId: true, details: true },
  });
}

describe("npm run admin:set-plan -- ORGANIZATION PLAN", () => {
  it("sets the plan by slug or id, audited as the operator, and says so in one line", async () => {
    const owner = await createUser();
    const organization = await createOrganizationWith([{ userId: owner.id, role: "owner" }], { planId: "team" });
    await prisma.organization.update({ where: { id: organization.id }, data: { billingState: "canceled" } });

    const bySlug = await setPlan(organization.slug.toUpperCase(), "enterprise");
    expect(bySlug).toEqual({
      code: 0,
      stdout: `${organization.name} (${organization.slug}) is now on Enterprise (was Team).\n`,
      stderr: "",
    });
    expect(
      await prisma.organization.findUniqueOrThrow({ where: { id: organization.id }, select: { planId: true, billingState: true } }),
    ).toEqual({
      planId: "enterprise",
      billingState: "active",
    });
    expect(await planEvents(organization.id)).toEqual([
      {
        actorKind: "system",
        actorId: "operator",
        targetId: organization.id,
        details: { plan: { from: "team", to: "enterprise" }, state: { from: "canceled", to: "active" } },
      },
    ]);

    // The same plan again: exit 0, nothing changed, nothing recorded.
    const again = await setPlan(organization.id, "enterprise");
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(`${organization.name} (${organization.slug}) is already on Enterprise. Nothing was changed.\n`);
    expect(await planEvents(organization.id)).toHaveLength(1);
  });

  it("refuses an unknown organization, an unknown plan and bad arguments: exit 1, a message, nothing changed", async () => {
    const owner = await createUser();
    const organization = await createOrganizationWith([{ userId: owner.id, role: "owner" }]);
    const unchanged = async () => {
      expect((await prisma.organization.findUniqueOrThrow({ where: { id: organization.id } })).planId).toBe("free");
      expect(await planEvents(organization.id)).toEqual([]);
    };

    const unknownOrganization = await setPlan("no-such-organization", "enterprise");
    expect(unknownOrganization).toMatchObject({ code: 1, stdout: "" });
    expect(unknownOrganization.stderr).toBe('No organization with the id or slug "no-such-organization". Nothing was changed.\n');
    // A well-formed id of no organization (e.g. one deleted since) is the same.
    expect((await setPlan("00000000-0000-4000-8000-000000000000", "team")).code).toBe(1);

    const unknownPlan = await setPlan(organization.slug, "platinum");
    expect(unknownPlan).toMatchObject({ code: 1, stdout: "" });
    expect(unknownPlan.stderr).toBe('Unknown plan "platinum". Plans: free, team, enterprise. Nothing was changed.\n');

    const missing = await setPlan(organization.slug);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^Missing arguments\.\n\nUsage: /);
    const extra = await setPlan(organization.slug, "team", "enterprise");
    expect(extra.code).toBe(1);
    expect(extra.stderr).toMatch(/^Unexpected argument: enterprise\n\nUsage: /);
    const noDatabase = await run("scripts/admin-set-plan.ts", [organization.slug, "team"], { DATABASE_URL: undefined });
    expect(noDatabase.code).toBe(1);
    expect(noDatabase.stderr).toMatch(/^DATABASE_URL is not set/);
    await unchanged();
  });
});

describe("--help on every operator command", () => {
  // Every command `npm run build` compiles (each top-level scripts/*.ts), so a new one is covered.
  const commands = readdirSync(join(root, "scripts"))
    .filter((name) => name.endsWith(".ts"))
    .map((name) => `scripts/${name}`);
  it.each(commands)("%s: --help and -h print the usage (exit 0), an unknown option is refused (exit 1)", async (script) => {
    // No database needed to ask for help.
    for (const flag of ["--help", "-h"]) {
      const help = await run(script, [flag], { DATABASE_URL: undefined });
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(/^Usage: /);
      expect(help.stderr).toBe("");
    }
    const unknown = await run(script, ["--no-such-option"], { DATABASE_URL: undefined });
    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toBe("");
    expect(unknown.stderr).toMatch(/^Unknown option '--no-such-option'\.\n\nUsage: /);
  });
});

// `npm run admin:create-user`: a verified account without a usable password and a one-time link
// that sets one, refused (exit 1) for a taken or invalid address.
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { resetPassword } from "~/accounts/password-reset.server";
import { signIn } from "~/auth/sign-in.server";
import { prisma } from "~/db.server";
import { createUser } from "../../tests/factories";
import { createUserWithPasswordLink, FIRST_PASSWORD_LINK_LIFETIME } from "./create-user.ts";

const url = () => process.env.DATABASE_URL!;
const root = join(import.meta.dirname, "..", "..");

async function run(args: string[], env: Record<string, string> = {}) {
  const { DATABASE_URL: _unset, ...inherited } = process.env;
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [join(root, "node_modules", "tsx", "dist", "cli.mjs"), join(root, "scripts", "admin-create-user.ts"), ...args],
      { cwd: root, env: { ...inherited, DATABASE_URL: url(), APP_ORIGIN: "https://keys.example.com", ...env } },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe("createUserWithPasswordLink", () => {
  it("creates a verified account whose password is set by the link, once", async () => {
    const email = `First-${randomUUID().slice(0, 8)}@Example.test`;
    const result = await createUserWithPasswordLink(url(), "https://keys.example.com", {
      email: ` ${email} `,
      name: "Fay First",
      platformAdmin: true,
    });
    expect(result.kind).toBe("created");
    if (result.kind !== "created") return;
    expect(result.email).toBe(email.toLowerCase());
    expect(result.link).toMatch(/^https:\/\/keys\.example\.com\/reset-password\?token=[A-Za-z0-9_-]{43}$/);
    const user = await prisma.user.findUniqueOrThrow({ where: { id: result.userId }, include: { passwordReset: true } });
    expect(user).toMatchObject({ name: "Fay First", isPlatformAdmin: true });
    expect(user.emailVerifiedAt).not.toBeNull();
    // Verified from the start: no verification link (which asks for the sign-up password) exists for it.
    expect(await prisma.emailVerification.count({ where: { userId: result.userId } })).toBe(0);
    expect(user.passwordReset!.expiresAt.getTime() - user.passwordReset!.createdAt.getTime()).toBeGreaterThan(
      FIRST_PASSWORD_LINK_LIFETIME - 5_000,
    );
    const token = new URL(result.link).searchParams.get("token")!;
    expect(user.passwordReset!.tokenHash).not.toContain(token);
    await resetPassword(token, "the-first-real-password");
    await expect(signIn({ email: result.email, password: "the-first-real-password" }, "10.20.0.1")).resolves.toMatchObject({
      twoFactorPending: false,
    });
    await expect(resetPassword(token, "another-password-here")).rejects.toMatchObject({ messageKey: "passwordReset.invalidLink" });
  });

  it("refuses a taken or invalid address and changes nothing", async () => {
    const taken = await createUser();
    const count = await prisma.user.count();
    expect(await createUserWithPasswordLink(url(), "http://localhost:3000", { email: taken.email.toUpperCase() })).toEqual({
      kind: "taken",
      email: taken.email,
    });
    // Besides the obvious, what sign-in's form would never accept (so the account could never sign
    // in): a Cyrillic look-alike, a control character, a zero-width space, a right-to-left override.
    const unusable = ["\u043ewner@example.test", "a\u0001b@example.test", "ow\u200bner@example.test", "a\u202eb@example.test"];
    for (const email of ["not-an-address", "a@b", "two@@example.test", `${"x".repeat(250)}@example.test`, ...unusable]) {
      expect((await createUserWithPasswordLink(url(), "http://localhost:3000", { email })).kind).toBe("invalid");
    }
    for (const name of ["a\u0000b", "Eve\u202eflow", "\u200b"]) {
      expect((await createUserWithPasswordLink(url(), "http://localhost:3000", { email: "ok@example.test", name })).kind).toBe("invalid");
    }
    expect(await prisma.user.count()).toBe(count);
  });
});

describe("npm run admin:create-user", () => {
  it("prints the link and exits 0; exits 1 with a clear message for a taken or invalid address", async () => {
    const email = `cli-${randomUUID().slice(0, 8)}@example.test`;
    const created = await run([email, "--name", "Cleo Command"]);
    expect(created.code).toBe(0);
    expect(created.stdout).toContain(`Created the account ${email}.`);
    expect(created.stdout).toMatch(/https:\/\/keys\.example\.com\/reset-password\?token=[A-Za-z0-9_-]{43}/);

    const again = await run([email]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`An account with the e-mail address ${email} already exists.`);

    const invalid = await run(["nobody"]);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain('"nobody" is not an e-mail address.');

    const help = await run(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Usage: DATABASE_URL=postgresql://… npm run admin:create-user -- EMAIL [--name NAME] [--platform-admin]");
    expect((await run([])).code).toBe(1);
    expect((await run([email, "--unknown"])).code).toBe(1);
    expect((await run([email], { DATABASE_URL: "" })).stderr).toContain("DATABASE_URL is required");
  }, 60_000);
});

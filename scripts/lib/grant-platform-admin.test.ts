import { describe, expect, it } from "vitest";
import { prisma } from "~/db.server";
import { createUser } from "../../tests/factories";
import { grantPlatformAdmin } from "./grant-platform-admin.ts";

describe("npm run admin:grant", () => {
  it("makes an existing account a platform admin, once, and refuses unknown e-mails", async () => {
    const user = await createUser();
    const url = process.env.DATABASE_URL!;
    expect(await grantPlatformAdmin(url, `  ${user.email.toUpperCase()} `)).toBe("granted");
    expect((await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).isPlatformAdmin).toBe(true);
    expect(await grantPlatformAdmin(url, user.email)).toBe("already");
    expect(await grantPlatformAdmin(url, "nobody@example.test")).toBe("unknown");
  });
});

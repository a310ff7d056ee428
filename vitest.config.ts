import { defineConfig } from "vitest/config";
import tsconfigPaths from "vite-tsconfig-paths";

export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    // Two groups: the suite, then the check of what the suite sent to PostgreSQL
    // (tests/statements/tenant-statements.test.ts), which must run once everything else is done.
    projects: [
      {
        extends: true,
        test: {
          name: "suite",
          include: [
            "app/**/*.test.ts",
            "tests/architecture/**/*.test.ts",
            "tests/integration/**/*.test.ts",
            "tests/production/**/*.test.ts",
            "tests/statements/statement-rules.test.ts",
            "scripts/**/*.test.ts",
            "prisma/**/*.test.ts",
          ],
        },
      },
      {
        extends: true,
        test: { name: "statements", include: ["tests/statements/tenant-statements.test.ts"], sequence: { groupOrder: 1 } },
      },
    ],
    globalSetup: ["tests/setup/global-setup.ts"],
    setupFiles: ["tests/setup/per-file.ts"],
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ["default", "json"],
    outputFile: { json: "test-results/vitest.json" },
  },
});

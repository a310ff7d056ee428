import { existsSync } from "node:fs";
import { defineConfig, devices } from "@playwright/test";

// Debian's Chromium where it is installed (offline machines cannot download Playwright's browser),
// else Playwright's own Chromium (a normal machine after `npx playwright install chromium`).
const debianChromium = "/usr/lib/chromium/chromium";
const executablePath = existsSync(debianChromium) ? debianChromium : undefined;
// 3210 unless E2E_PORT says otherwise (another checkout's suite may hold 3210: with reuseExistingServer
// the run would silently test that checkout's build).
const port = Number(process.env.E2E_PORT ?? 3210);
const ci = Boolean(process.env.CI);

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  forbidOnly: ci,
  retries: ci ? 1 : 0,
  workers: 2,
  timeout: 30_000,
  expect: { timeout: 7_500 },
  reporter: [["list"], ["json", { outputFile: "test-results/playwright.json" }]],
  outputDir: "test-results/playwright",
  use: {
    baseURL: `http://localhost:${port}`,
    headless: true,
    locale: "en-US",
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: executablePath ? { executablePath } : {},
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], launchOptions: executablePath ? { executablePath } : {} } }],
  webServer: {
    // Only starts the built app (`npm run test:e2e` builds first) on a fresh embedded database.
    command: "node --import tsx tests/e2e/start-server.ts",
    url: `http://localhost:${port}/healthz`,
    env: { E2E_PORT: String(port) },
    reuseExistingServer: !ci,
    timeout: 120_000,
    stdout: "ignore",
    stderr: "pipe",
    gracefulShutdown: { signal: "SIGTERM", timeout: 10_000 },
  },
});

// Sign-up on a real deployment's default: with an external DATABASE_URL and no SIGNUP_POLICY,
// accounts are by invitation only. The suite's own server runs on the embedded database (sign-up
// open), so this file starts a second instance of the built app against a database of its own in
// the same PostgreSQL (its mail worker then never takes the other tests' jobs).
import type { ChildProcess } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { freePort } from "../../scripts/lib/free-port.ts";
import { spawnBuiltApp } from "../built-app.ts";
import { e2eDatabaseUrl } from "./database";
import { expect, test } from "./fixtures";

test.describe.configure({ mode: "serial" });

const databaseName = `keyledger_invite_only_${process.pid}`;
let child: ChildProcess | undefined;
let origin = "";

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: e2eDatabaseUrl().replace(/\/keyledger$/, "/postgres") });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

test.beforeAll(async () => {
  test.setTimeout(90_000);
  await admin((client) =>
    client.query(`DROP DATABASE IF EXISTS ${databaseName}`).then(() => client.query(`CREATE DATABASE ${databaseName}`)),
  );
  const port = await freePort();
  const { SIGNUP_POLICY: _policy, ...inherited } = process.env;
  child = spawnBuiltApp(
    {
      ...inherited,
      DATABASE_URL: e2eDatabaseUrl().replace(/\/keyledger$/, `/${databaseName}`),
      PORT: String(port),
      HOST: "127.0.0.1",
      APP_ORIGIN: "",
    },
    { outboxDir: join(tmpdir(), `keyledger-e2e-invite-only-${port}`), stdio: "ignore" },
  );
  origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error("the invite-only server exited during start-up");
    if (
      await fetch(`${origin}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (Date.now() > deadline) throw new Error("the invite-only server did not start within 60 s");
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
});

test.afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child!.once("exit", resolve));
    child.kill("SIGTERM");
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  }
  await admin((client) => client.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`));
});

test("invitation only: the sign-up page explains it and offers no form (English, desktop)", async ({ page }) => {
  await page.goto(`${origin}/login`);
  await page.getByRole("link", { name: "Create one" }).click();
  await expect(page).toHaveURL(`${origin}/signup`);
  await expect(page.getByRole("heading", { name: "Create your account" })).toBeVisible();
  await expect(page.getByRole("status")).toHaveText(
    "Accounts on this KeyLedger are by invitation only. Open the link in your invitation mail to create yours.",
  );
  await expect(page.getByLabel("Password", { exact: true })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Create account" })).toHaveCount(0);
  // The way back to signing in stays, by keyboard too.
  await page.keyboard.press("Tab");
  const signIn = page.getByRole("link", { name: "Sign in" });
  for (let i = 0; i < 6 && !(await signIn.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("Tab");
  await expect(signIn).toBeFocused();
});

test("invitation only, in German on a phone, without overflow", async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: "de-DE" });
  const page = await context.newPage();
  await page.goto(`${origin}/signup`);
  await expect(page.getByRole("heading", { name: "Erstellen Sie Ihr Konto" })).toBeVisible();
  await expect(page.getByRole("status")).toContainText("Konten gibt es in diesem KeyLedger nur auf Einladung.");
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBe(0);
  await context.close();
});

// Cold start (issue 29). Run: `npx tsx bench/cold-start.ts` (runs `npm run build` when the compiled
// start is missing). Starts an embedded PostgreSQL in a temporary directory and migrates it, so the
// database is warm and up to date, then measures from process start to the first 200 of the ready
// endpoint, in interleaved rounds (ROUNDS of each), for:
//   (a) the production start: `node build/node/start.js` (no build, no tsx);
//   (b) `npm start` as it was before issue 29, of an existing build: it rebuilt at every start
//       (`npm run build`, then React Router's build alone) and ran the start through tsx:
//       `react-router build && tsx scripts/start.ts`, both through npm as `npm start` ran them.
// Targets: (a) under 2 s, and (b) / (a) at least 3. Every start is stopped with SIGTERM (to its
// process group) before the next one begins. React Router's build empties build/, so the compiled
// start (build/node, build/migrations) is copied aside first and put back after each (b), untimed.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { startEmbeddedPostgres } from "../scripts/lib/embedded-postgres.ts";
import { freePort } from "../scripts/lib/free-port.ts";
import { migrate } from "../scripts/lib/migrate.ts";
import { COMPILED_START, READY_PATH } from "../tests/built-app.ts";
import { ensureBuild } from "./lib/servers.ts";

const ROOT = join(import.meta.dirname, "..");
const ROUNDS = Number(process.env.BENCH_COLD_ROUNDS ?? 5);
const TARGET_MS = 2_000;
const TARGET_RATIO = 3;

interface Variant {
  label: string;
  command: string[];
}

const VARIANTS: Variant[] = [
  { label: "(a) node build/node/start.js", command: [process.execPath, COMPILED_START] },
  {
    label: "(b) before: react-router build && tsx scripts/start.ts",
    command: ["sh", "-c", "npm exec --no -- react-router build && exec npm exec --no -- tsx scripts/start.ts"],
  },
];

/** Milliseconds from spawning `variant` until READY_PATH answers 200; the process is stopped after. */
async function timeStart(variant: Variant, databaseUrl: string): Promise<number> {
  const port = await freePort();
  const startedAt = performance.now();
  const child = spawn(variant.command[0]!, variant.command.slice(1), {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), HOST: "127.0.0.1", NODE_ENV: "production", LOG_LEVEL: "warn" },
    stdio: ["ignore", "ignore", "pipe"],
    detached: true, // its own process group: npm, sh and tsx stop with it
  });
  let errors = "";
  child.stderr!.on("data", (chunk: Buffer) => (errors += chunk.toString("utf8")));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${variant.label} exited during start-up:\n${errors}`);
      const status = await fetch(`http://127.0.0.1:${port}${READY_PATH}`).then(
        (response) => response.status,
        () => 0,
      );
      if (status === 200) return performance.now() - startedAt;
      if (performance.now() - startedAt > 180_000) throw new Error(`${variant.label} not ready in 180 s:\n${errors}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    if (child.exitCode === null) process.kill(-child.pid!, "SIGTERM");
    const timer = setTimeout(() => child.exitCode === null && process.kill(-child.pid!, "SIGKILL"), 15_000);
    await exited;
    clearTimeout(timer);
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

export async function runColdStartBench(): Promise<{ passed: boolean; report: string }> {
  ensureBuild();
  if (!existsSync(COMPILED_START)) throw new Error("No compiled start: run `npm run build`.");
  const dataRoot = await mkdtemp(join(tmpdir(), "keyledger-bench-cold-"));
  const database = await startEmbeddedPostgres({ dataDir: join(dataRoot, "data"), port: await freePort(), database: "bench" });
  try {
    await migrate(database.url);
    console.log(`Database warm and migrated. ${ROUNDS} interleaved rounds; each start measured to ${READY_PATH} = 200.\n`);
    const compiledAside = join(dataRoot, "compiled");
    for (const dir of ["node", "migrations"]) await cp(join(ROOT, "build", dir), join(compiledAside, dir), { recursive: true });
    const times = new Map(VARIANTS.map((variant) => [variant, [] as number[]]));
    for (let round = 0; round < ROUNDS; round++) {
      // Alternate the order, so neither always starts right after the other.
      for (const variant of round % 2 ? [...VARIANTS].reverse() : VARIANTS) {
        const ms = await timeStart(variant, database.url);
        times.get(variant)!.push(ms);
        if (variant === VARIANTS[1]) {
          for (const dir of ["node", "migrations"]) await cp(join(compiledAside, dir), join(ROOT, "build", dir), { recursive: true });
        }
        console.log(`  round ${round + 1}  ${variant.label.padEnd(58)} ${(ms / 1000).toFixed(2)} s`);
      }
    }
    const [production, before] = VARIANTS.map((variant) => median(times.get(variant)!)) as [number, number];
    const ratio = before / production;
    const checks = [
      { what: "(a) median, s", value: (production / 1000).toFixed(2), target: `< ${TARGET_MS / 1000}`, ok: production < TARGET_MS },
      { what: "(b) / (a) medians", value: ratio.toFixed(1), target: `>= ${TARGET_RATIO}`, ok: ratio >= TARGET_RATIO },
    ];
    const rows = VARIANTS.map((variant) => {
      const values = times.get(variant)!;
      return `| ${variant.label} | ${(median(values) / 1000).toFixed(2)} | ${(Math.min(...values) / 1000).toFixed(2)} | ${(Math.max(...values) / 1000).toFixed(2)} |`;
    }).join("\n");
    const report = `| Start (process start to ${READY_PATH} 200, database warm) | median s | min s | max s |
|---|---:|---:|---:|
${rows}

| Figure | Measured | Target | |
|---|---:|---|---|
${checks.map((c) => `| ${c.what} | ${c.value} | ${c.target} | ${c.ok ? "ok" : "missed"} |`).join("\n")}`;
    return { passed: checks.every((c) => c.ok), report };
  } finally {
    await database.stop().catch(() => {});
    await rm(dataRoot, { recursive: true, force: true }).catch(() => {});
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { passed, report } = await runColdStartBench();
  console.log(`\n${report}\n\n${passed ? "All targets met." : "Some targets missed."}`);
}

// `npm run <command>` for every operator command (package.json): `node scripts/run.mjs NAME [ARGS…]`
// runs build/node/NAME.js when the build has it and is current, else scripts/NAME.ts from source with
// tsx (a checkout, where tsx is installed). `npm start` (NAME start) never falls back: in a checkout
// it builds first when there is no build or the sources changed since (the stamp below), then runs
// the compiled start. Either way the command runs in this process, so signals reach it directly
// (docs/decisions/0035-runtime-and-production-build.md).
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const root = join(import.meta.dirname, "..");
/** What `npm run build` reads; a change to any of them makes the build stale. */
const SOURCES = [
  "app",
  "server",
  "scripts",
  "prisma",
  "public",
  "package.json",
  "package-lock.json",
  "vite.config.ts",
  "react-router.config.ts",
  "tsconfig.json",
];
/** Written last by scripts/build-node.mjs. */
const STAMP = join(root, "build", "node", ".built");

const [name, ...args] = process.argv.slice(2);
if (!name || !/^[a-z0-9-]+$/.test(name)) {
  console.error("Usage: node scripts/run.mjs COMMAND [ARGS…] (COMMAND: a scripts/*.ts name, e.g. db-migrate)");
  process.exit(1);
}
const compiled = join(root, "build", "node", `${name}.js`);
const source = join(root, "scripts", `${name}.ts`);
// A checkout has the sources; a deployed tree (package.json, package-lock.json, scripts/*.mjs, build/) does not.
const checkout = existsSync(join(root, "app", "root.tsx"));

/** The newest modification time under `path` (tests aside: they are not part of the build). */
function newest(path) {
  let info;
  try {
    info = statSync(path);
  } catch {
    return 0;
  }
  if (!info.isDirectory()) return path.endsWith(".test.ts") ? 0 : info.mtimeMs;
  return readdirSync(path).reduce((latest, entry) => Math.max(latest, newest(join(path, entry))), info.mtimeMs);
}

function buildIsCurrent() {
  if (!existsSync(STAMP)) return false;
  if (!checkout) return true;
  const built = statSync(STAMP).mtimeMs;
  return SOURCES.every((path) => newest(join(root, path)) <= built);
}

let current = buildIsCurrent();
if (name === "start" && checkout && !current) {
  console.log(existsSync(STAMP) ? "The sources changed since the last build: building…" : "No build yet: building…");
  const built = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  if (built.status !== 0) process.exit(built.status ?? 1);
  current = true;
}

process.argv = [process.argv[0], current && existsSync(compiled) ? compiled : source, ...args];
if (current && existsSync(compiled)) {
  await import(pathToFileURL(compiled).href);
} else if (checkout && existsSync(source) && existsSync(join(root, "node_modules", "tsx"))) {
  const { register } = await import("tsx/esm/api");
  register();
  await import(pathToFileURL(source).href);
} else {
  console.error(
    existsSync(source) || existsSync(compiled)
      ? `No current build of ${name}: run \`npm run build\` first.`
      : `No command named ${name} (scripts/${name}.ts).`,
  );
  process.exit(1);
}

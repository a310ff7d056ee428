// `npm run <command>` for every operator command (package.json): `node scripts/run.mjs NAME [ARGS…]`
// runs build/node/NAME.js when the build has it and is current, else scripts/NAME.ts from source with
// tsx (a checkout, where tsx is installed). `npm start` (NAME start) never falls back: in a checkout
// it builds first when there is no build or the sources changed since (the stamp below), then runs
// the compiled start. Either way the command runs in this process, so signals reach it directly
// (docs/decisions/0035-runtime-and-production-build.md).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { buildIsCurrent, BUILD_STAMP } from "./build-stamp.mjs";

const root = join(import.meta.dirname, "..");
const [name, ...args] = process.argv.slice(2);
if (!name || !/^[a-z0-9-]+$/.test(name)) {
  console.error("Usage: node scripts/run.mjs COMMAND [ARGS…] (COMMAND: a scripts/*.ts name, e.g. db-migrate)");
  process.exit(1);
}
const compiled = join(root, "build", "node", `${name}.js`);
const source = join(root, "scripts", `${name}.ts`);
// A checkout has the sources; a deployed tree (package.json, package-lock.json, scripts/*.mjs, build/) does not.
const checkout = existsSync(join(root, "app", "root.tsx"));

let current = buildIsCurrent(root, checkout);
if (name === "start" && checkout && !current) {
  console.log(existsSync(join(root, BUILD_STAMP)) ? "The sources changed since the last build: building…" : "No build yet: building…");
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

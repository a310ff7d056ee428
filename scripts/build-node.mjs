// The second half of `npm run build` (after `react-router build`): compiles every operator command
// and the server's start to plain JavaScript in build/node/, so production runs `node` on them (no
// tsx, no TypeScript at run time) and a deployed tree needs only the runtime dependencies
// (docs/decisions/0035-runtime-and-production-build.md).
//
// Entry points by rule, not by list: every scripts/*.ts (tests aside) is a command, compiled to
// build/node/<name>.js; `npm run <command>` reaches it through scripts/run.mjs. Packages stay
// external (loaded from node_modules); our own code (app/, server/, prisma/, the generated Prisma
// client) is bundled, with `~/` resolved through tsconfig.json. Shared code lands in chunks, and
// code loaded with import() (the demo seed, the development server) in chunks of its own, loaded
// only when used. The migrations are copied to build/migrations (scripts/lib/paths.ts).
import { readFileSync, writeFileSync } from "node:fs";
import { cp, readdir, rm } from "node:fs/promises";
import { builtinModules } from "node:module";
import { join } from "node:path";
import { build } from "esbuild";

const root = join(import.meta.dirname, "..");
const outdir = join(root, "build", "node");
const STAMP = join(outdir, ".built");

const entryPoints = (await readdir(join(root, "scripts")))
  .filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts") && !name.endsWith(".d.ts"))
  .map((name) => join(root, "scripts", name));

await rm(outdir, { recursive: true, force: true });
const result = await build({
  absWorkingDir: root,
  entryPoints,
  outdir,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node24",
  packages: "external",
  splitting: true,
  // Chunks beside the entries, not in a folder: scripts/lib/paths.ts counts on every file being two
  // levels below the project root.
  chunkNames: "[name]-[hash]",
  sourcemap: "linked",
  tsconfig: join(root, "tsconfig.json"),
  metafile: true,
  logLevel: "warning",
});

await rm(join(root, "build", "migrations"), { recursive: true, force: true });
await cp(join(root, "prisma", "migrations"), join(root, "build", "migrations"), { recursive: true });

// Every package the compiled code loads must be a runtime dependency, or `npm ci --omit=dev` leaves it
// out and the command fails in production. The development server (vite) is the one exception: only
// `npm run dev` loads it, and that runs from source.
const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const runtime = new Set(Object.keys(manifest.dependencies));
const builtins = new Set(builtinModules);
const missing = new Set();
for (const [file, output] of Object.entries(result.metafile.outputs)) {
  if (Object.keys(output.inputs).some((input) => input.startsWith("server/dev-server"))) continue;
  for (const imported of output.imports) {
    if (!imported.external || imported.path.startsWith("node:") || builtins.has(imported.path)) continue;
    const name = imported.path.startsWith("@") ? imported.path.split("/").slice(0, 2).join("/") : imported.path.split("/")[0];
    if (!runtime.has(name)) missing.add(`${name} (imported by ${file})`);
  }
}
if (missing.size) {
  console.error(`build/node needs packages that are not runtime dependencies in package.json:\n  ${[...missing].join("\n  ")}`);
  process.exit(1);
}

// The stamp `npm start` compares with the sources' times (scripts/run.mjs): written last, so an
// interrupted build is never taken for a complete one.
writeFileSync(STAMP, `${new Date().toISOString()}\n`);
console.log(`Compiled ${entryPoints.length} commands to build/node/ and copied the migrations to build/migrations/.`);

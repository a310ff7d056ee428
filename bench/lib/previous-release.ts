// The previous release, built once and kept, so a benchmark can run it beside the current build on
// the same database in the same run (the regression guard, bench/api-key-auth.ts). Which commit is
// "previous" is written in bench/previous-release.json, moved forward after each landing.
//
// The commit's tree is taken from this repository's history (`git archive`), installed with `npm ci`
// and built with `npm run build` in ~/.cache/keyledger/releases/<commit>/ (XDG_CACHE_HOME is
// honoured); later runs reuse it. An old release runs against the current schema: migrations only
// add (docs: "Rolling upgrades"), and its migrator ignores migrations it does not know.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "..", "..");

export interface PreviousRelease {
  commit: string;
  what: string;
  /** The checkout with its build: `startProductionServer(root, …)` starts it. */
  root: string;
  /** It knows the secrets that name their organization (issue 31, decision 0048); an older release
   * reads only the 52-character secrets it issued, and a benchmark must load it with those. */
  readsRoutedSecrets: boolean;
}

/** The migration that came with routed secrets: a release that has it reads them. */
const ROUTED_SECRETS_MIGRATION = join("prisma", "migrations", "20261202000000_api_key_legacy_secrets");

const release = (commit: string, what: string, root: string): PreviousRelease => ({
  commit,
  what,
  root,
  readsRoutedSecrets: existsSync(join(root, ROUTED_SECRETS_MIGRATION)),
});

function run(command: string, args: string[], cwd: string): void {
  execFileSync(command, args, { cwd, stdio: ["ignore", "ignore", "inherit"] });
}

/** The release named in bench/previous-release.json, built (minutes the first time, instant after). */
export function preparePreviousRelease(): PreviousRelease {
  const { commit, what } = JSON.parse(readFileSync(join(ROOT, "bench", "previous-release.json"), "utf8")) as {
    commit: string;
    what: string;
  };
  const cache = join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "keyledger", "releases");
  const root = join(cache, commit);
  const done = join(root, ".bench-ready");
  if (existsSync(done)) return release(commit, what, root);
  console.log(`Preparing the previous release ${commit.slice(0, 10)} (${what}) in ${root}: git archive, npm ci, npm run build…`);
  // Built beside its place and moved there when done: a run interrupted, or two at once, never
  // leaves a half-built tree that a later run would trust.
  const building = `${root}.building-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { recursive: true });
  try {
    try {
      execFileSync("sh", ["-c", `git -C "${ROOT}" archive --format=tar ${commit} | tar -x -C "${building}"`], {
        stdio: ["ignore", "ignore", "inherit"],
      });
    } catch (error) {
      throw new Error(`The previous release ${commit} is not in this repository's history (a shallow clone?)`, { cause: error });
    }
    run("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"], building);
    run("npm", ["run", "build", "--silent"], building);
    writeFileSync(join(building, ".bench-ready"), `${new Date().toISOString()}\n`);
    if (!existsSync(done)) {
      rmSync(root, { recursive: true, force: true });
      renameSync(building, root);
    }
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
  return release(commit, what, root);
}

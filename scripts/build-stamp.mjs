// Whether build/ is current: `npm start` and the operator commands (scripts/run.mjs) build or run the
// sources when it is not, and the benchmarks rebuild rather than measure an old build.
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

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
/** Written last by scripts/build-node.mjs, relative to the project root. */
export const BUILD_STAMP = join("build", "node", ".built");

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

/** True when the build exists and, in a checkout (`checkout`: the sources are there), is newer than every source. */
export function buildIsCurrent(root, checkout) {
  const stamp = join(root, BUILD_STAMP);
  if (!existsSync(stamp)) return false;
  if (!checkout) return true;
  const built = statSync(stamp).mtimeMs;
  return SOURCES.every((path) => newest(join(root, path)) <= built);
}

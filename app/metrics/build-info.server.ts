// keyledger_build_info: which build answers (version, Node, commit), read once when metrics are
// turned on. The commit is KEYLEDGER_COMMIT when the deployment sets it (an image built without
// .git), else read from the checkout's .git, else "unknown".
import { readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { Gauge, type Registry } from "prom-client";

function readText(path: string): string | null {
  try {
    return readFileSync(path, "utf8").trim();
  } catch {
    return null;
  }
}

function packageVersion(root: string): string {
  const text = readText(join(root, "package.json"));
  try {
    const version = text ? (JSON.parse(text) as { version?: unknown }).version : undefined;
    return typeof version === "string" ? version : "unknown";
  } catch {
    return "unknown";
  }
}

/** The git directory of `root`: `.git` itself, or where a worktree's `.git` file points. */
function gitDirectory(root: string): string | null {
  const dotGit = join(root, ".git");
  try {
    if (statSync(dotGit).isDirectory()) return dotGit;
  } catch {
    return null;
  }
  const pointer = readText(dotGit)?.match(/^gitdir: (.+)$/m)?.[1];
  return pointer ? resolve(root, pointer) : null;
}

function checkoutCommit(root: string): string | null {
  const gitDir = gitDirectory(root);
  const head = gitDir && readText(join(gitDir, "HEAD"));
  if (!gitDir || !head) return null;
  if (/^[0-9a-f]{40}$/.test(head)) return head;
  const ref = head.match(/^ref: (refs\/[\w./-]+)$/)?.[1];
  if (!ref) return null;
  // A worktree's branches live in the main repository's directory (commondir).
  const common = resolve(gitDir, readText(join(gitDir, "commondir")) ?? ".");
  const loose = readText(join(gitDir, ref)) ?? readText(join(common, ref));
  if (loose && /^[0-9a-f]{40}$/.test(loose)) return loose;
  const packed = readText(join(common, "packed-refs"))
    ?.split("\n")
    .find((line) => line.endsWith(` ${ref}`));
  return packed?.slice(0, 40) ?? null;
}

export function registerBuildInfo(registry: Registry, commitSetting: string | undefined, root = process.cwd()): void {
  const info = new Gauge({
    name: "keyledger_build_info",
    help: "Always 1; the labels say which build answers: version (package.json), Node version, commit.",
    labelNames: ["version", "node_version", "commit"],
    registers: [registry],
  });
  const commit = (commitSetting ?? checkoutCommit(root) ?? "unknown").toLowerCase().slice(0, 12);
  info.set({ version: packageVersion(root), node_version: process.versions.node, commit }, 1);
}

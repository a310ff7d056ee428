// scripts/run.mjs, the launcher behind `npm start` and every operator command
// (docs/decisions/0035-runtime-and-production-build.md), in a small tree of its own: the compiled
// command when the build is current, the source through tsx when a source is newer (a checkout),
// the compiled one in a deployed tree whatever the times, `start` building first when the build is
// stale, and arguments and exit codes passed through.
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..", "..");
let tree: string;

function write(path: string, text: string, secondsAgo = 0) {
  const file = join(tree, path);
  mkdirSync(join(file, ".."), { recursive: true });
  writeFileSync(file, text);
  const when = new Date(Date.now() - secondsAgo * 1000);
  utimesSync(file, when, when);
}

/** A command that prints where it ran from and its arguments, and exits with its first argument's number. */
const command = (from: string) =>
  `console.log("${from}", JSON.stringify(process.argv.slice(2))); process.exitCode = Number(process.argv[2] ?? 0);\n`;

async function launch(name: string, args: string[] = []) {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [join(tree, "scripts", "run.mjs"), name, ...args], {
      cwd: tree,
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

beforeEach(() => {
  tree = mkdtempSync(join(tmpdir(), "keyledger-launcher-"));
  // The launcher and the build-stamp rule it imports: what a deployed tree has of scripts/.
  for (const file of ["run.mjs", "build-stamp.mjs"]) cpSync(join(root, "scripts", file), join(tree, "scripts", file));
  mkdirSync(join(tree, "node_modules"));
  symlinkSync(join(root, "node_modules", "tsx"), join(tree, "node_modules", "tsx"));
  write("app/root.tsx", "// a checkout\n", 120);
  write("scripts/hello.ts", command("source"), 120);
  write("build/node/hello.js", command("compiled"), 60);
  write("build/node/start.js", command("compiled start"), 60);
  write("build/node/.built", "", 60);
  // `npm run build` here only writes a new stamp.
  write(
    "package.json",
    JSON.stringify({ type: "module", scripts: { build: "node -e \"require('fs').writeFileSync('build/node/.built', '')\"" } }),
    120,
  );
  // The copied launcher is a source too, and writing a file moves its folder's time (the launcher
  // counts folders: a deleted source changes them).
  const before = new Date(Date.now() - 120_000);
  for (const path of ["app", "scripts", "scripts/run.mjs", "scripts/build-stamp.mjs"]) utimesSync(join(tree, path), before, before);
});

afterEach(() => rmSync(tree, { recursive: true, force: true }));

describe("node scripts/run.mjs NAME", () => {
  it("runs the compiled command when the build is newer than every source, with its arguments and exit code", async () => {
    expect(await launch("hello", ["3", "--name", "Ada Lovelace"])).toEqual({ code: 3, output: 'compiled ["3","--name","Ada Lovelace"]\n' });
  });

  it("runs the source through tsx when a source changed after the build (a checkout)", async () => {
    write("scripts/hello.ts", command("source"));
    expect(await launch("hello", ["0"])).toEqual({ code: 0, output: 'source ["0"]\n' });
  });

  it("runs the compiled command in a deployed tree (no app/), whatever the files' times", async () => {
    rmSync(join(tree, "app"), { recursive: true });
    write("package.json", "{}");
    expect((await launch("hello")).output).toBe("compiled []\n");
  });

  it("npm start (start) builds first when the build is stale, then runs the compiled start; not when it is current", async () => {
    expect((await launch("start")).output).toBe("compiled start []\n");
    write("app/root.tsx", "// edited\n");
    const rebuilt = await launch("start");
    expect(rebuilt.output).toMatch(/^The sources changed since the last build: building…\n[\s\S]*compiled start \[\]\n$/);
    rmSync(join(tree, "build", "node", ".built"));
    expect((await launch("start")).output).toMatch(/^No build yet: building…\n[\s\S]*compiled start \[\]\n$/);
  });

  it("refuses an unknown or malformed command name with exit 1", async () => {
    expect(await launch("nothing-here")).toEqual({ code: 1, output: "No command named nothing-here (scripts/nothing-here.ts).\n" });
    expect((await launch("../app/root")).code).toBe(1);
    expect((await launch("")).code).toBe(1);
  });
});

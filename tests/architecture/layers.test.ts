// The layer table in eslint.config.js is the architecture (docs/architecture.md). ESLint refuses an
// import that crosses it; this test proves what ESLint cannot: that the table itself has no cycle,
// that every file of app/ sits in exactly one layer, and that the files' import graph (type-only
// imports included) has no circle, so a reader can always start at the bottom and read upwards.
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { LAYERS, MAY_IMPORT } from "../../eslint.config.js";

const root = join(import.meta.dirname, "../..");
type Layer = string;
const layerNames: Layer[] = Object.keys(LAYERS);

/** A layer's globs are either a file or a folder followed by `/**`: nothing subtler to match. */
function inGlob(file: string, glob: string): boolean {
  return glob.endsWith("/**") ? file.startsWith(glob.slice(0, -2)) : file === glob;
}

function layerOf(file: string): Layer[] {
  return layerNames.filter((layer) => LAYERS[layer]!.files.some((glob) => inGlob(file, glob)));
}

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = `${dir}/${name}`;
    if (path === "app/generated") return [];
    if (statSync(join(root, path)).isDirectory()) return sourceFiles(path);
    // Tests beside the code may import whatever they check; they are nobody's dependency.
    return /\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

const EXTENSIONS = ["", ".ts", ".tsx", "/index.ts", "/index.tsx"];

/** The app file an import names, or null for packages and generated code. */
function resolveImport(from: string, specifier: string): string | null {
  let base: string;
  if (specifier.startsWith("~/")) base = `app/${specifier.slice(2)}`;
  else if (specifier.startsWith(".")) base = relative(root, join(root, dirname(from), specifier));
  else return null;
  // Generated code: Prisma's client, React Router's route types (`./+types/<route>`).
  if (base.startsWith("app/generated/") || specifier.includes("/+types/")) return null;
  // Stylesheets and other assets are no layer's code.
  if (/\.(css|svg|png|json)(\?.*)?$/.test(specifier)) return null;
  for (const extension of EXTENSIONS) {
    const candidate = base + extension;
    if (existsSync(join(root, candidate)) && statSync(join(root, candidate)).isFile()) return candidate;
  }
  throw new Error(`${from} imports ${specifier}, which names no file`);
}

function importGraph(files: string[]): Map<string, string[]> {
  return new Map(
    files.map((file) => {
      const { importedFiles } = ts.preProcessFile(readFileSync(join(root, file), "utf8"), true, true);
      const targets = importedFiles.map((i) => resolveImport(file, i.fileName)).filter((t): t is string => t !== null && t !== file);
      return [file, [...new Set(targets)]];
    }),
  );
}

/** One cycle of the graph (its nodes in order, first repeated at the end), or null. */
function findCycle(graph: Map<string, readonly string[]>): string[] | null {
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  function visit(node: string): string[] | null {
    if (state.get(node) === "done") return null;
    if (state.get(node) === "open") return [...path.slice(path.indexOf(node)), node];
    state.set(node, "open");
    path.push(node);
    for (const next of graph.get(node) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(node, "done");
    return null;
  }
  for (const node of graph.keys()) {
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return null;
}

const files = sourceFiles("app");
const graph = importGraph(files);

describe("the layer table", () => {
  it("names only layers it declares", () => {
    expect(Object.keys(MAY_IMPORT).sort()).toEqual([...layerNames].sort());
    const unknown = Object.values(MAY_IMPORT)
      .flat()
      .filter((layer) => !layerNames.includes(layer));
    expect(unknown).toEqual([]);
  });

  it("has no cycle: every layer sits on a floor below the layers that import it", () => {
    const layerGraph = new Map(layerNames.map((layer) => [layer, MAY_IMPORT[layer]!]));
    expect(findCycle(layerGraph)).toBeNull();
  });

  it("places every file of app/ in exactly one layer", () => {
    const misplaced = files.map((file) => ({ file, layers: layerOf(file) })).filter(({ layers }) => layers.length !== 1);
    expect(misplaced).toEqual([]);
  });
});

describe("the import graph of app/", () => {
  it("follows the layer table (type-only imports included)", () => {
    const crossings = [...graph].flatMap(([file, targets]) => {
      const [from] = layerOf(file);
      return targets
        .filter((target) => {
          const [to] = layerOf(target);
          return from !== to && !MAY_IMPORT[from!]!.includes(to!);
        })
        .map((target) => `${file} -> ${target}`);
    });
    expect(crossings).toEqual([]);
  });

  it("has no circle between files", () => {
    expect(findCycle(graph)).toBeNull();
  });

  it("is read from the code: the circle finder sees a planted circle", () => {
    const planted = new Map(graph);
    planted.set("app/lib/ids.ts", [...(graph.get("app/lib/ids.ts") ?? []), "app/edge/request-edge.server.ts"]);
    expect(graph.get("app/edge/request-edge.server.ts")?.length).toBeGreaterThan(0);
    expect(findCycle(planted)).not.toBeNull();
  });
});

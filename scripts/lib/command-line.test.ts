import { describe, expect, it } from "vitest";
import { readCommandLine } from "./command-line.ts";

const spec = { usage: "Usage: x", options: { name: { type: "string" } }, positionals: { min: 1, max: 2 } } as const;

describe("readCommandLine", () => {
  it("reads options and positionals", () => {
    expect(readCommandLine(spec, ["a", "--name", "N"])).toEqual({ kind: "ok", values: { name: "N" }, positionals: ["a"] });
  });
  it("answers help for --help and -h, even beside mistakes", () => {
    expect(readCommandLine(spec, ["--help"])).toEqual({ kind: "help" });
    expect(readCommandLine(spec, ["-h"])).toEqual({ kind: "help" });
    expect(readCommandLine(spec, ["a", "b", "c", "-h"])).toEqual({ kind: "help" });
  });
  it("refuses unknown options and a wrong number of arguments", () => {
    expect(readCommandLine(spec, ["a", "--force"])).toEqual({ kind: "error", message: "Unknown option '--force'." });
    expect(readCommandLine(spec, [])).toEqual({ kind: "error", message: "Missing arguments." });
    expect(readCommandLine(spec, ["a", "b", "c"])).toEqual({ kind: "error", message: "Unexpected argument: c" });
    expect(readCommandLine({ usage: "u" }, ["x"])).toEqual({ kind: "error", message: "Unexpected argument: x" });
    expect(readCommandLine(spec, ["a", "--name=A", "--name", "B"])).toEqual({ kind: "error", message: "--name given twice." });
    const flags = { usage: "u", options: { dev: { type: "boolean" } } } as const;
    expect(readCommandLine(flags, ["--dev", "--dev"])).toEqual({ kind: "ok", values: { dev: true }, positionals: [] });
  });
});

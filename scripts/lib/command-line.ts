// The operator commands' one argument reader (node:util parseArgs): `--help` / `-h` prints the
// usage to stdout and exits 0; an unknown or repeated option or a wrong number of arguments prints what is
// wrong and the usage to stderr and exits 1. Every command in scripts/ reads its arguments here.
import { parseArgs, type ParseArgsConfig } from "node:util";

type ParseArgsOptionsConfig = NonNullable<ParseArgsConfig["options"]>;

export interface CommandSpec<O extends ParseArgsOptionsConfig> {
  /** The whole help text, starting with "Usage: …". */
  usage: string;
  options?: O;
  /** How many positional arguments the command takes. */
  positionals?: { min: number; max: number };
}

/** The options' values as read (no `multiple` options here). */
export type OptionValues<O extends ParseArgsOptionsConfig> = { [K in keyof O]?: O[K]["type"] extends "boolean" ? boolean : string };

export type CommandLine<O extends ParseArgsOptionsConfig> =
  { kind: "help" } | { kind: "error"; message: string } | { kind: "ok"; values: OptionValues<O>; positionals: string[] };

const HELP = { help: { type: "boolean", short: "h" } } as const;

/** Reads `argv` against the spec (pure: the tests call this one). */
export function readCommandLine<O extends ParseArgsOptionsConfig>(spec: CommandSpec<O>, argv: string[]): CommandLine<O> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { ...HELP, ...spec.options }, allowPositionals: true, strict: true, tokens: true });
  } catch (error) {
    // e.g. "Unknown option '--force'"; parseArgs's hint about "--" is about its own API, not ours.
    return { kind: "error", message: (error as Error).message.replace(/\. To specify a positional argument.*$/s, ".") };
  }
  if ((parsed.values as { help?: boolean }).help) return { kind: "help" };
  // parseArgs keeps the last of a repeated option: `--from A --from B` would quietly mean B. A flag
  // given twice means the same thing twice (`npm run dev -- --dev`).
  const given = new Set<string>();
  for (const token of parsed.tokens) {
    if (token.kind !== "option" || spec.options?.[token.name]?.type !== "string") continue;
    if (given.has(token.name)) return { kind: "error", message: `--${token.name} given twice.` };
    given.add(token.name);
  }
  const { min, max } = spec.positionals ?? { min: 0, max: 0 };
  const count = parsed.positionals.length;
  if (count < min) return { kind: "error", message: "Missing arguments." };
  if (count > max) return { kind: "error", message: `Unexpected argument: ${parsed.positionals[max]}` };
  return { kind: "ok", values: parsed.values as OptionValues<O>, positionals: parsed.positionals };
}

/** Reads this process's arguments; prints the usage and exits for `--help` and for mistakes. */
export function commandLine<O extends ParseArgsOptionsConfig>(
  spec: CommandSpec<O>,
  argv = process.argv.slice(2),
): { values: OptionValues<O>; positionals: string[] } {
  const read = readCommandLine(spec, argv);
  if (read.kind === "help") {
    console.log(spec.usage);
    process.exit(0);
  }
  if (read.kind === "error") {
    console.error(`${read.message}\n\n${spec.usage}`);
    process.exit(1);
  }
  return read;
}

/** What every command says without DATABASE_URL. */
export const MISSING_DATABASE_URL =
  "DATABASE_URL is not set. Set it to the PostgreSQL database, e.g. DATABASE_URL=postgresql://user:pass@host:5432/keyledger";

/** DATABASE_URL, or the message every command gives without it (exit 1). */
export function requireDatabaseUrl(): string {
  const url = process.env.DATABASE_URL;
  if (url) return url;
  console.error(MISSING_DATABASE_URL);
  process.exit(1);
}

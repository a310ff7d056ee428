// Every line the app logs while a test file runs, kept for the test to search (a secret must never
// be in one) and printed nowhere: the logger's level is opened to trace for the file and put back
// after it. Call at the top level of a test file, after the app's modules load.
import pino from "pino";
import { afterAll, beforeAll, vi } from "vitest";

export function captureLogs(logger: pino.Logger): string[] {
  const logged: string[] = [];
  const stream = Reflect.get(logger, pino.symbols.streamSym) as { write: (line: string) => boolean };
  let level: string;
  beforeAll(() => {
    level = logger.level;
    logger.level = "trace";
    vi.spyOn(stream, "write").mockImplementation((line: string) => {
      logged.push(line);
      return true;
    });
  });
  afterAll(() => {
    logger.level = level;
    vi.restoreAllMocks();
  });
  return logged;
}

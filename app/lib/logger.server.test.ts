// The request line is put together by hand for speed (formatRequestLine); it must be exactly the line
// pino would have written for the same fields, so log collectors cannot tell the two apart.
import { Writable } from "node:stream";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { formatRequestLine, loggerOptions } from "./logger.server";

const TIMESTAMP = ',"time":"2026-11-25T19:00:00.123Z"';

function pinoLine(level: "info" | "warn" | "error", fields: object): string {
  let written = "";
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      written += chunk.toString("utf8");
      done();
    },
  });
  const logger = pino({ ...loggerOptions, level: "info", timestamp: () => TIMESTAMP }, sink);
  logger[level](fields, "request");
  return written;
}

describe("formatRequestLine", () => {
  const lines = [
    { requestId: "0703eb74-c667-4deb-b22d-701b797affd4", method: "POST", path: "/rpc/apiKey/authenticate", status: 200, durationMs: 1.5 },
    {
      requestId: "r",
      method: "GET",
      path: '/a "quoted" \\ path\n\u2028',
      organizationId: "84f59c2c-1338-49e6-8dd1-1019e2767b1c",
      userId: "u",
      status: 503,
      durationMs: 0,
      databaseUnavailable: "unreachable" as const,
      aborted: true as const,
    },
  ];
  for (const [i, line] of lines.entries())
    for (const level of ["info", "warn", "error"] as const)
      it(`writes what pino writes (line ${i + 1}, ${level})`, () => {
        expect(formatRequestLine(level, line, TIMESTAMP)).toBe(pinoLine(level, line));
      });
});

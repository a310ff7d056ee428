// The IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers): `RateLimit-Policy`
// names each policy with its quota `q` and window `w` in seconds; `RateLimit` says what is left
// of it, `r`, and in how many seconds it resets, `t`. Both are Structured Field lists of strings
// with parameters, e.g. `"audit.export.user";q=5;w=60` and `"audit.export.user";r=4;t=60`.
import type { RateLimitState } from "./domain-error";

/** A policy name as a Structured Field string: printable ASCII, with `"` and `\` escaped. */
function sfString(value: string): string {
  return `"${value.replace(/[^\x20-\x7e]/g, "").replace(/["\\]/g, (c) => `\\${c}`)}"`;
}

export function rateLimitHeaders(states: readonly RateLimitState[]): Record<string, string> {
  if (states.length === 0) return {};
  return {
    "RateLimit-Policy": states.map((s) => `${sfString(s.policy)};q=${s.limit};w=${s.windowSeconds}`).join(", "),
    RateLimit: states.map((s) => `${sfString(s.policy)};r=${s.remaining};t=${s.resetSeconds}`).join(", "),
  };
}

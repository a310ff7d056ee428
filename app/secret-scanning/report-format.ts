// GitHub's secret scanning partner format (docs/contract.md, POST /api/secret-scanning/github):
// the body is a JSON array of the matches GitHub found, `{token, type, url, source}`, and the
// answer is a JSON array saying of each token whether it is ours, `{token_raw, token_type, label}`.
// The bounds are ours (docs/decisions/0060-secret-scanning-reports.md).
import { z } from "zod";
import { printableText, wellFormed } from "~/lib/text";

/** Bodies above this are refused (413) before any parsing: 1,000 matches with long URLs fit in a
 * third of it. The request edge caps every page write at the same 1 MiB. */
export const MAX_REPORT_BODY_BYTES = 1024 * 1024;
/** Matches per request: more is refused (413) and GitHub sends them in smaller batches. */
export const MAX_REPORT_TOKENS = 1000;

/** What is stored of GitHub's strings, at most, in UTF-16 code units as the audit catalog counts them (longer ones are cut, never refused: a report is a warning worth keeping). */
export const STORED_LENGTH = { type: 128, source: 64, url: 2048 } as const;

/** What is kept of one of GitHub's strings: control and invisible characters left out (PostgreSQL
 * refuses NUL in text; an escape sequence or a direction override has no place in a mail or a
 * list), a lone surrogate as U+FFFD (it cannot be stored as UTF-8, nor in jsonb), at most `max`
 * code units, never half a character. Never refused, for the same reason as the length. */
export function storedReportText(value: string, max: number): string {
  const kept = (printableText(wellFormed(value), max) ?? "").slice(0, max);
  return /[\uD800-\uDBFF]$/.test(kept) ? kept.slice(0, -1) : kept;
}

/** GitHub's strings of one match as they are stored and shown (storedReportText each). */
export function storedStrings(found: ReportedMatch): { type: string; source: string; url: string } {
  return {
    type: storedReportText(found.type, STORED_LENGTH.type),
    source: storedReportText(found.source, STORED_LENGTH.source),
    url: storedReportText(found.url, STORED_LENGTH.url),
  };
}

const match = z.object({
  token: z.string(),
  type: z.string(),
  // GitHub says the URL may be empty; a missing one reads as empty too.
  url: z.string().default(""),
  source: z.string().default(""),
});

export const reportSchema = z.array(match);

export type ReportedMatch = z.infer<typeof match>;

export type Label = "true_positive" | "false_positive";

export interface MatchAnswer {
  token_raw: string;
  token_type: string;
  label: Label;
}

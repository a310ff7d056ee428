// GitHub's secret scanning partner format (docs/contract.md, POST /api/secret-scanning/github):
// the body is a JSON array of the matches GitHub found, `{token, type, url, source}`, and the
// answer is a JSON array saying of each token whether it is ours, `{token_raw, token_type, label}`.
// The bounds are ours (docs/decisions/0060-secret-scanning-reports.md).
import { z } from "zod";
import { printableText } from "~/lib/text";

/** Bodies above this are refused (413) before any parsing: 1,000 matches with long URLs fit in a
 * third of it. The request edge caps every page write at the same 1 MiB. */
export const MAX_REPORT_BODY_BYTES = 1024 * 1024;
/** Matches per request: more is refused (413) and GitHub sends them in smaller batches. */
export const MAX_REPORT_TOKENS = 1000;

/** What is stored of GitHub's strings, at most (longer ones are cut, never refused: a report is a warning worth keeping). */
export const STORED_LENGTH = { type: 128, source: 64, url: 2048 } as const;

/** GitHub's strings as they are stored and shown: cut to STORED_LENGTH, without control or
 * invisible characters (PostgreSQL refuses NUL in text and jsonb, which would fail the whole
 * report; bidirectional overrides would disguise the URL), empty when nothing readable is left. */
export function storedStrings(found: ReportedMatch): { type: string; source: string; url: string } {
  return {
    type: printableText(found.type, STORED_LENGTH.type) ?? "",
    source: printableText(found.source, STORED_LENGTH.source) ?? "",
    url: printableText(found.url, STORED_LENGTH.url) ?? "",
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

// POST /api/secret-scanning/github: a report from GitHub's secret scanning partner program
// (docs/contract.md; docs/decisions/0060-secret-scanning-reports.md). In this order, each refusal
// writing nothing: not configured → 404; no signature headers, a key id we do not know, or a
// signature that does not verify over the exact bytes received → 401; more than 1 MiB → 413; not
// JSON, or not an array of matches → 400; more than 1,000 matches → 413. Then every token is
// checked (format and checksum, no I/O; then its hash), whatever `type` GitHub gave it: the type is
// GitHub's label for the pattern, our own format says what is ours. Matches are recorded (the key
// "reported leaked", its owners and admins mailed once) and the answer labels every token.
import { env } from "~/env.server";
import type { ScanningPublicKey } from "~/env-keys.server";
import type { ErrorKey } from "~/lib/error-key";
import { matchKeys } from "./match-tokens.server";
import { recordReports } from "./record-reports.server";
import { MAX_REPORT_BODY_BYTES, MAX_REPORT_TOKENS, reportSchema, type MatchAnswer } from "./report-format";
import { verifyReportSignature } from "./signature.server";

export type ReportRefusal = { status: 400 | 401 | 404 | 413; code: string; messageKey: ErrorKey; params?: Record<string, number> };
export type ReportOutcome = { ok: true; answers: MatchAnswer[]; newlyReported: number } | ({ ok: false } & ReportRefusal);

const refuse = (refusal: ReportRefusal): ReportOutcome => ({ ok: false, ...refusal });

const TOO_LARGE: ReportRefusal = {
  status: 413,
  code: "PAYLOAD_TOO_LARGE",
  messageKey: "secretScanning.tooLarge",
  params: { tokens: MAX_REPORT_TOKENS, megabytes: MAX_REPORT_BODY_BYTES / (1024 * 1024) },
};

export async function receiveScanningReport(
  headers: Headers,
  body: Uint8Array,
  keys: readonly ScanningPublicKey[] | undefined = env().SECRET_SCANNING_PUBLIC_KEYS,
): Promise<ReportOutcome> {
  if (!keys) return refuse({ status: 404, code: "NOT_FOUND", messageKey: "secretScanning.notConfigured" });
  if (body.byteLength > MAX_REPORT_BODY_BYTES) return refuse(TOO_LARGE);
  const signature = verifyReportSignature(keys, headers, body);
  if (!signature.ok) {
    const messageKey = (
      { missing: "secretScanning.unsigned", unknownKey: "secretScanning.unknownKey", mismatch: "secretScanning.badSignature" } as const
    )[signature.reason];
    return refuse({ status: 401, code: "UNAUTHORIZED", messageKey });
  }
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString("utf8"));
  } catch {
    return refuse({ status: 400, code: "BAD_REQUEST", messageKey: "invalidJson" });
  }
  // Counted before the shape is checked: a 10,000-entry array is refused without reading its entries.
  if (Array.isArray(json) && json.length > MAX_REPORT_TOKENS) return refuse(TOO_LARGE);
  const report = reportSchema.safeParse(json);
  if (!report.success) return refuse({ status: 400, code: "BAD_REQUEST", messageKey: "secretScanning.invalid" });
  const matches = report.data;
  const matched = await matchKeys(matches.map((m) => m.token));
  const newlyReported = await recordReports(matched, matches);
  const ours = new Set(matched.flatMap((m) => m.positions));
  const answers = matches.map((m, position): MatchAnswer => ({
    token_raw: m.token,
    token_type: m.type,
    label: ours.has(position) ? "true_positive" : "false_positive",
  }));
  return { ok: true, answers, newlyReported };
}

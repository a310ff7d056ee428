// Statements of the app that may reach every shard, each with why. Matched against the statement
// as pg_stat_statements keeps it, whitespace folded to single spaces. Kept short: background sweeps
// over every organization, the transitions of decisions 0048 and 0050 (removed by the release that
// ends them), and one rare request of a person across the organizations they were invited to
// (docs/scale-out.md). `tenant-statements.test.ts` also fails on an entry the suite no longer sends.
export interface AllowedScatter {
  statement: RegExp;
  reason: string;
}

export const ALLOWED_SCATTER: AllowedScatter[] = [
  {
    statement: /^DELETE FROM users WHERE id IN \( SELECT u\.id FROM users u WHERE u\.email_verified_at IS NULL /,
    reason: "housekeeping: accounts never verified are purged daily, in batches, once nothing in any organization names them",
  },
  {
    statement: /^WITH due AS \( SELECT organization_id, id, token_hash FROM invitations WHERE token_hash IS NOT NULL AND expires_at < /,
    reason: "housekeeping: expired invitation links are forgotten daily, in batches, in every organization",
  },
  {
    statement: /^SELECT organization_id FROM api_keys WHERE secret_hash = \$1 LIMIT/,
    reason: "decision 0048's transition: a 52-character secret without a lookup row; removed by the release that ends it",
  },
  {
    statement: /^SELECT organization_id::text, secret_hash FROM api_keys WHERE secret_hash = ANY\(\$1::bytea\[\]\)/,
    reason:
      "decision 0048's transition, for secret scanning reports (decision 0060): 52-character secrets without a lookup row, all of a report's in one statement; removed with the transition",
  },
  {
    statement:
      /^SELECT "public"\."invitations"\."organization_id", "public"\."invitations"\."id" FROM "public"\."invitations" WHERE "public"\."invitations"\."id" = \$1 LIMIT/,
    reason: "decision 0050's transition: an invitation mail job queued by the release before names no organization",
  },
  {
    statement:
      /^SELECT "public"\."invitations"\."organization_id", "public"\."invitations"\."id" FROM "public"\."invitations" WHERE "public"\."invitations"\."email" = \$1 /,
    reason: "deleting an account (once per person) withdraws the invitations addressed to it, in whichever organizations sent them",
  },
  {
    statement: /^SELECT count\(graphile_worker\.add_job\( \$\d+, json_build_object\(\$\d+, due\.organization_id, \$\d+, due\.id\)/,
    reason:
      "the audit streams' pump (decision 0053): once a second, one statement finds the due streams of every organization and queues their delivery jobs",
  },
  {
    statement:
      /^SELECT s\.id, CASE WHEN s\.paused THEN \$\d+ WHEN s\.failing_since <= now\(\) - make_interval\(secs => \$1::int\) THEN \$\d+/,
    reason: "the /metrics scrape reads every audit stream's state and lag (decision 0053), as it reads the job queue",
  },
  {
    statement:
      /^SELECT count\(\*\)::int AS ahead FROM audit_streams WHERE cursor_transaction_id >= pg_snapshot_xmax\(pg_current_snapshot\(\)\)/,
    reason:
      "the pump's check for streams' cursors ahead of the database after a logical restore (README, Backups): every 10 minutes per instance",
  },
  {
    statement: /^WITH kinds \(kind, opens, closes\) AS \(VALUES /,
    reason:
      "the expiry reminders' planner (decision 0058): every 15 minutes, one statement finds the keys of every organization whose expiry entered a reminder's window, through the partial index on unrevoked keys' expiry",
  },
  {
    statement: /^SELECT count\(graphile_worker\.add_job\( \$\d+, json_build_object\(\$\d+, due\.id\), job_key => \$\d+ \|\| due\.id::text/,
    reason:
      "the audit digests' schedule (decision 0061): at most once a minute per instance, one statement finds the organizations of every shard due for a digest (newest digest by its key, one event probe in the stream order index) and queues their jobs",
  },
  {
    statement:
      /^SELECT count\(\*\)::int AS ahead FROM organizations o WHERE \(SELECT d\.horizon FROM audit_digests d WHERE d\.organization_id = o\.id/,
    reason:
      "the digest schedule's check for digests ahead of the database after a logical restore (README, Backups): every 10 minutes per instance, each organization's newest digest by its key",
  },
];

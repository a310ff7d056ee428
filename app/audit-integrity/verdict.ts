// What a verification of an organization's audit log against its digests answers
// (docs/decisions/0062-audit-verification.md): one verdict, the same through the command line, the
// procedure auditLog.verify and the integrity page. JSON-safe: dates are ISO 8601 text. Pure.

/** "intact": every sealed event matches its digest; "tampered": at least one finding;
 * "unsealed": nothing could be checked (`reason` says why), which is not "intact". */
export type VerdictStatus = "intact" | "tampered" | "unsealed";

/** Why a log could not be checked: no signing key configured, no digest written yet, or no digest's
 * period overlaps the days asked for. */
export type UnsealedReason = "no-key" | "no-digest" | "no-digest-in-range";

/** One thing that does not match, named exactly. `sequence` is the digest's number. */
export type Finding =
  /** The event is in the log and in the digest, with other content than was sealed. */
  | { kind: "event-altered"; eventId: string; createdAt: string; sequence: number }
  /** The event is in the log in a range a digest sealed, but not in that digest; `sequence` null:
   * after the newest digest, yet it had committed before that digest was made, or its transaction
   * id was never issued by the server. */
  | { kind: "event-inserted"; eventId: string; createdAt: string; sequence: number | null }
  /** The digest holds the event; the log no longer does. `createdAt` is the sealed time. */
  | { kind: "event-deleted"; eventId: string; createdAt: string; sequence: number }
  /** Digest `sequence` sealed the event; its transaction id was changed since, so it now sorts into
   * digest `foundIn`'s range (null: after the newest digest). Not deleted, not inserted. */
  | { kind: "event-moved"; eventId: string; createdAt: string; sequence: number; foundIn: number | null }
  /** Digests firstSequence..lastSequence are gone; `events` is how many events the log now holds
   * in the range they covered (not checked, and not reported as inserted). */
  | { kind: "digest-missing"; firstSequence: number; lastSequence: number; events: number }
  /** The digest's signature does not hold for its document under the key it names. */
  | { kind: "bad-signature"; sequence: number; keyId: string }
  /** The digest names a key that is neither the current nor a retired one. */
  | { kind: "unknown-key"; sequence: number; keyId: string }
  /** The digest is signed with a key that earlier digests had already been rotated away from. */
  | { kind: "key-replaced"; sequence: number; keyId: string }
  /** The digest's link to its predecessor (previousDigestSha256, or its `after` position) does not
   * match the predecessor's document. */
  | { kind: "chain-broken"; sequence: number }
  /** The row's columns disagree with the document it holds (rows swapped or edited). `sequence`
   * is the row's; `documentSequence` the signed one (null: the document does not even parse). */
  | { kind: "digest-row-mismatch"; sequence: number; documentSequence: number | null; columns: string[] }
  /** The entries stored with the digest are not the ones its signed document commits to. */
  | { kind: "entries-altered"; sequence: number }
  /** Events wait to be sealed for longer than the digest job ever lets them: the newest digests
   * were removed or the job is not running. `newestSequence` null: no digest at all. */
  | { kind: "sealing-overdue"; newestSequence: number | null; overdueEvents: number; oldestEventAt: string };

export type FindingKind = Finding["kind"];

export interface Verdict {
  status: VerdictStatus;
  reason?: UnsealedReason;
  digestsChecked: number;
  eventsChecked: number;
  /** Events after the newest digest that are not sealed yet (not a failure). */
  pendingEvents: number;
  /** The first and last checked digests' period ends. */
  firstDigestAt: string | null;
  lastDigestAt: string | null;
  findings: Finding[];
  /** Findings beyond MAX_FINDINGS, counted but not listed. */
  moreFindings: number;
}

/** At most this many findings are listed: a log with its history wiped names the first thousand. */
export const MAX_FINDINGS = 1000;

/** Collects findings, listing the first MAX_FINDINGS. */
export class FindingList {
  readonly findings: Finding[] = [];
  more = 0;

  add(finding: Finding): void {
    if (this.findings.length < MAX_FINDINGS) this.findings.push(finding);
    else this.more += 1;
  }

  /** Another list's findings after this one's. */
  addAll(other: FindingList): void {
    for (const finding of other.findings) this.add(finding);
    this.more += other.more;
  }

  get count(): number {
    return this.findings.length + this.more;
  }
}

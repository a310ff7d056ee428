// What `npm run audit:verify` prints for a verdict (app/audit-integrity/verdict.ts): one line per
// finding, naming the event and the digest's number, then a summary line. Pure: the tests call it.
import type { Finding, Verdict } from "../../app/audit-integrity/verdict.ts";

function findingLine(finding: Finding): string {
  switch (finding.kind) {
    case "event-altered":
      return `ALTERED   event ${finding.eventId} (${finding.createdAt}): its content differs from what digest ${finding.sequence} sealed.`;
    case "event-inserted":
      return finding.sequence === null
        ? `INSERTED  event ${finding.eventId} (${finding.createdAt}): after the newest digest, yet it had committed before that digest was made or its transaction id was never issued.`
        : `INSERTED  event ${finding.eventId} (${finding.createdAt}): in the range digest ${finding.sequence} sealed, but not in it.`;
    case "event-deleted":
      return `DELETED   event ${finding.eventId} (${finding.createdAt}): sealed in digest ${finding.sequence}, no longer in the log.`;
    case "event-moved":
      return `MOVED     event ${finding.eventId} (${finding.createdAt}): sealed in digest ${finding.sequence}, its transaction id was changed: it now sorts ${finding.foundIn === null ? "after the newest digest" : `into digest ${finding.foundIn}'s range`}.`;
    case "digest-missing": {
      const which =
        finding.firstSequence === finding.lastSequence
          ? `digest ${finding.firstSequence}`
          : `digests ${finding.firstSequence}-${finding.lastSequence}`;
      return `MISSING   ${which}: removed; the ${finding.events} event(s) the log holds in the range it covered cannot be checked.`;
    }
    case "bad-signature":
      return `SIGNATURE digest ${finding.sequence}: the signature does not hold under key ${finding.keyId}.`;
    case "unknown-key":
      return `KEY       digest ${finding.sequence}: signed with key ${finding.keyId}, which is neither the current nor a retired key.`;
    case "key-replaced":
      return `KEY       digest ${finding.sequence}: signed with key ${finding.keyId}, which earlier digests had already been rotated away from (a retired key signing again).`;
    case "chain-broken":
      return `CHAIN     digest ${finding.sequence}: its link to digest ${finding.sequence - 1} does not match that digest.`;
    case "digest-row-mismatch":
      return finding.documentSequence === null
        ? `ROW       digest row ${finding.sequence}: its document is not a digest of this organization.`
        : `ROW       digest row ${finding.sequence}: its columns (${finding.columns.join(", ")}) disagree with its signed document (digest ${finding.documentSequence}): swapped or edited.`;
    case "entries-altered":
      return `ENTRIES   digest ${finding.sequence}: the stored entries are not the ones its signed document commits to.`;
    case "sealing-overdue":
      return `OVERDUE   ${finding.overdueEvents} event(s) since ${finding.oldestEventAt} are still not sealed after ${finding.newestSequence === null ? "no digest at all" : `digest ${finding.newestSequence}`}: the newest digests are missing or the digest job is not running.`;
  }
}

const UNSEALED: Record<NonNullable<Verdict["reason"]>, string> = {
  "no-key": "No signing key is configured (AUDIT_SIGNING_KEY, AUDIT_RETIRED_KEYS): the log cannot be verified.",
  "no-digest": "The log is not sealed yet: no digest has been written for it, so there is nothing to verify against.",
  "no-digest-in-range": "No digest covers the days asked for: nothing to verify.",
};

/** The lines for a verdict, in order, and whether the command succeeds (only an intact log does). */
export function verdictLines(who: string, verdict: Verdict): { ok: boolean; lines: string[] } {
  const counts = `${verdict.digestsChecked} digest(s), ${verdict.eventsChecked} event(s) checked, ${verdict.pendingEvents} pending (not sealed yet)`;
  if (verdict.status === "unsealed") return { ok: false, lines: [`${who}: ${UNSEALED[verdict.reason ?? "no-digest"]}`] };
  if (verdict.status === "intact") return { ok: true, lines: [`${who}: intact. ${counts}.`] };
  const total = verdict.findings.length + verdict.moreFindings;
  const more = verdict.moreFindings > 0 ? [`… and ${verdict.moreFindings} more finding(s) not listed.`] : [];
  return { ok: false, lines: [...verdict.findings.map(findingLine), ...more, `${who}: TAMPERED, ${total} finding(s). ${counts}.`] };
}

// An event whose transaction id was changed behind the app sorts into another place of the stream
// order (a transaction id is not sealed: decision 0061): the walk finds it missing where it was
// sealed and present where it now sorts. It was not deleted, and not inserted: this names it once,
// as moved, and as altered too when its content no longer is what was sealed. Pure.
import type { Finding } from "./verdict";

/** The hash of an event the walk called inserted or deleted, and the digest (null: after the newest). */
export interface WalkedEvent {
  sha256: Buffer;
  sequence: number | null;
}

/** Inserted or deleted events remembered at most, each (a wiped log has a million deleted): beyond,
 * a moved one is named as both, as without this. */
export const MAX_WALKED = 50_000;

/** Remembers the event of a finding unless MAX_WALKED are already. */
export function remember(events: Map<string, WalkedEvent>, id: string, event: () => WalkedEvent): void {
  if (events.size < MAX_WALKED) events.set(id, event());
}

/**
 * The findings with each event both inserted and deleted named as moved (at the first of its two
 * findings' places). `inserted` and `deleted` hold the events of those findings by id.
 */
export function withMovedEvents(
  findings: readonly Finding[],
  inserted: ReadonlyMap<string, WalkedEvent>,
  deleted: ReadonlyMap<string, WalkedEvent>,
): Finding[] {
  const named = new Set<string>();
  const result: Finding[] = [];
  for (const finding of findings) {
    if (finding.kind !== "event-inserted" && finding.kind !== "event-deleted") {
      result.push(finding);
      continue;
    }
    const [now, sealed] = [inserted.get(finding.eventId), deleted.get(finding.eventId)];
    if (!now || !sealed || sealed.sequence === null) {
      result.push(finding);
      continue;
    }
    if (named.has(finding.eventId)) continue;
    named.add(finding.eventId);
    const { eventId, createdAt } = finding;
    result.push({ kind: "event-moved", eventId, createdAt, sequence: sealed.sequence, foundIn: now.sequence });
    if (!now.sha256.equals(sealed.sha256)) result.push({ kind: "event-altered", eventId, createdAt, sequence: sealed.sequence });
  }
  return result;
}

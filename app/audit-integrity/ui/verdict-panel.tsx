// The verification's answer: "intact" with the counts, or each finding in words, with a link to the
// event where the log still holds it. The heading takes the focus when an answer arrives, and the
// panel is a live region, so a screen reader hears the verdict (decision 0062).
import { useEffect, useRef } from "react";
import { Link } from "react-router";
import { exactTimeText, useTimeSetting, type TimeSetting } from "~/components/local-time";
import { Alert, Card } from "~/components/ui";
import { useTranslation } from "~/i18n/use-translation";
import type { Finding, Verdict } from "~/audit-integrity/verdict";
import { eventLink } from "./integrity-page";

type Translate = ReturnType<typeof useTranslation<"auditIntegrity">>["t"];

function findingText(finding: Finding, t: Translate, time: TimeSetting): string {
  const at = (iso: string) => exactTimeText(iso, time);
  switch (finding.kind) {
    case "event-altered":
    case "event-deleted":
      return t(`findings.${finding.kind}`, { eventId: finding.eventId, time: at(finding.createdAt), sequence: finding.sequence });
    case "event-inserted":
      return finding.sequence === null
        ? t("findings.event-inserted-after", { eventId: finding.eventId, time: at(finding.createdAt) })
        : t("findings.event-inserted", { eventId: finding.eventId, time: at(finding.createdAt), sequence: finding.sequence });
    case "event-moved":
      return finding.foundIn === null
        ? t("findings.event-moved-after", { eventId: finding.eventId, time: at(finding.createdAt), sequence: finding.sequence })
        : t("findings.event-moved", {
            eventId: finding.eventId,
            time: at(finding.createdAt),
            sequence: finding.sequence,
            foundIn: finding.foundIn,
          });
    case "digest-missing":
      return finding.firstSequence === finding.lastSequence
        ? t("findings.digest-missing", { first: finding.firstSequence, events: finding.events })
        : t("findings.digests-missing", { first: finding.firstSequence, last: finding.lastSequence, events: finding.events });
    case "bad-signature":
    case "unknown-key":
    case "key-replaced":
      return t(`findings.${finding.kind}`, { sequence: finding.sequence, keyId: finding.keyId });
    case "chain-broken":
      return t("findings.chain-broken", { sequence: finding.sequence, previous: finding.sequence - 1 });
    case "digest-row-mismatch":
      return finding.documentSequence === null
        ? t("findings.digest-row-unreadable", { sequence: finding.sequence })
        : t("findings.digest-row-mismatch", {
            sequence: finding.sequence,
            documentSequence: finding.documentSequence,
            columns: finding.columns.join(", "),
          });
    case "entries-altered":
      return t("findings.entries-altered", { sequence: finding.sequence });
    case "sealing-overdue":
      return t("findings.sealing-overdue", { count: finding.overdueEvents, time: at(finding.oldestEventAt) });
  }
}

/** The event a finding names that the log still holds (a deleted one has no page to open). */
const linkedEvent = (finding: Finding) =>
  finding.kind === "event-altered" || finding.kind === "event-inserted" || finding.kind === "event-moved" ? finding.eventId : null;

export function VerdictPanel({ verdict }: { verdict: Verdict }) {
  const { t } = useTranslation("auditIntegrity");
  const time = useTimeSetting();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [verdict]);
  const total = verdict.findings.length + verdict.moreFindings;
  const summary =
    verdict.status === "intact"
      ? t("verdict.intact")
      : verdict.status === "tampered"
        ? t("verdict.tampered", { count: total })
        : `${t("verdict.unsealed")} ${t(`verdict.reasons.${verdict.reason ?? "no-digest"}`)}`;
  return (
    <Card tone={verdict.status === "tampered" ? "danger" : "default"}>
      <div aria-live="polite" className="space-y-4" data-testid="verdict" data-status={verdict.status}>
        <h2 ref={heading} tabIndex={-1} className="text-base font-semibold text-slate-900 outline-none focus-visible:ring-2">
          {t("verdict.heading")}
        </h2>
        <Alert tone={verdict.status === "intact" ? "success" : verdict.status === "tampered" ? "error" : "warning"}>
          <span className="block font-medium" data-testid="verdict-summary">
            {summary}
          </span>
          {verdict.status !== "unsealed" ? (
            <span className="block">
              {t("verdict.counts", { digests: verdict.digestsChecked, events: verdict.eventsChecked, pending: verdict.pendingEvents })}
            </span>
          ) : null}
        </Alert>
        {verdict.findings.length > 0 ? (
          <ul className="space-y-2 text-sm" data-testid="findings">
            {verdict.findings.map((finding, index) => {
              const eventId = linkedEvent(finding);
              return (
                <li key={index} className="rounded-md bg-red-50 px-3 py-2 text-red-900" data-kind={finding.kind}>
                  <span className="break-words">{findingText(finding, t, time)}</span>{" "}
                  {eventId ? (
                    <Link to={eventLink(eventId)} className="font-medium underline">
                      {t("verdict.openEvent")}
                    </Link>
                  ) : null}
                </li>
              );
            })}
          </ul>
        ) : null}
        {verdict.moreFindings > 0 ? <p className="text-sm text-slate-600">{t("verdict.more", { count: verdict.moreFindings })}</p> : null}
      </div>
    </Card>
  );
}

// What a delivery page action came to: a short confirmation, or the test event's outcome with the
// receiver's status and the failure in words.
import { useTranslation } from "~/i18n/use-translation";
import { Alert } from "~/components/ui";
import type { StreamPageOutcome } from "./stream-page";

export function StreamOutcome({ outcome }: { outcome: StreamPageOutcome }) {
  const { t } = useTranslation("auditStreams");
  if (outcome.intent !== "test") {
    const done = { update: t("edit.saved"), pause: t("actions.paused"), resume: t("actions.resumed"), restart: t("restart.done") };
    return <Alert tone="success">{done[outcome.intent]}</Alert>;
  }
  const { result } = outcome;
  if (result.ok)
    return (
      <div data-testid="stream-test-outcome">
        <Alert tone="success">
          {result.status === null ? t("actions.testDeliveredNoStatus") : t("actions.testDelivered", { status: result.status })}
        </Alert>
      </div>
    );
  return (
    <div data-testid="stream-test-outcome">
      <Alert tone="error">
        <p>{t("actions.testFailed", { reason: t(`failures.${result.failure}`) })}</p>
        {result.status !== null ? <p>{t("actions.testStatus", { status: result.status })}</p> : null}
        <code className="mt-1 block font-mono text-xs [overflow-wrap:anywhere]">{result.detail}</code>
      </Alert>
    </div>
  );
}

// Every answer of the call, what it means and what the integrator should do: a table on wide
// screens, one card per answer on a phone (the same list, laid out by CSS grid).
import { Card, badgeClass } from "~/components/ui";
import { useTranslation } from "~/i18n/use-translation";

const ANSWERS = [
  { status: 200, code: null, item: "ok", tone: "green" },
  { status: 400, code: "BAD_REQUEST", item: "badRequest", tone: "amber" },
  { status: 401, code: "UNAUTHORIZED", item: "unauthorized", tone: "red" },
  { status: 403, code: "FORBIDDEN", item: "forbidden", tone: "red" },
  { status: 405, code: "METHOD_NOT_SUPPORTED", item: "methodNotAllowed", tone: "amber" },
  { status: 413, code: "PAYLOAD_TOO_LARGE", item: "tooLarge", tone: "amber" },
  { status: 415, code: "UNSUPPORTED_MEDIA_TYPE", item: "unsupportedMediaType", tone: "amber" },
  { status: 503, code: "SERVICE_UNAVAILABLE", item: "unavailable", tone: "slate" },
] as const;

export function AnswersSection() {
  const { t } = useTranslation("integrators");
  return (
    <Card id="answers" title={t("answers.heading")} description={t("answers.description")}>
      <table className="w-full text-left text-sm">
        <thead className="sr-only sm:not-sr-only">
          <tr className="border-b border-slate-200 text-xs uppercase tracking-wide text-slate-500">
            <th scope="col" className="py-2 pr-3 font-semibold">
              {t("answers.status")}
            </th>
            <th scope="col" className="py-2 pr-3 font-semibold">
              {t("answers.meaning")}
            </th>
            <th scope="col" className="py-2 font-semibold">
              {t("answers.action")}
            </th>
          </tr>
        </thead>
        <tbody>
          {ANSWERS.map((answer) => (
            <tr
              key={answer.status}
              data-testid={`answer-${answer.status}`}
              className="grid gap-1 border-b border-slate-100 py-3 last:border-0 sm:table-row"
            >
              <th scope="row" className="text-left align-top font-normal sm:w-52 sm:py-3 sm:pr-3">
                <span className={badgeClass(answer.tone, "tabular-nums")}>{answer.status}</span>
                {answer.code ? <code className="mt-1 block font-mono text-xs text-slate-600">{answer.code}</code> : null}
              </th>
              <td className="align-top text-slate-700 sm:py-3 sm:pr-3">{t(`answers.items.${answer.item}.meaning`)}</td>
              <td className="align-top text-slate-600 sm:py-3">{t(`answers.items.${answer.item}.action`)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  );
}

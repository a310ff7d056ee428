// The call itself, and the copy-paste examples in four languages.
import { API_KEY_SCOPES } from "~/access/api-key-scopes";
import { MAX_REQUESTED_SCOPES } from "~/api-keys/schemas";
import { Card } from "~/components/ui";
import { useTranslation } from "~/i18n/use-translation";
import { Code, CodeBlock } from "./code-block";
import { codeSample, SAMPLE_LANGUAGES } from "./code-samples";

const ANSWER_FIELDS = ["keyId", "organizationId", "scopes"] as const;

function requestText(origin: string): string {
  return [
    `POST ${origin}/rpc/apiKey/authenticate`,
    "Authorization: Bearer sk_…",
    "Content-Type: application/json",
    "",
    '{"json":{"scopes":["organization:read"]}}',
  ].join("\n");
}

const ANSWER_TEXT = [
  "HTTP/1.1 200 OK",
  "Content-Type: application/json",
  "",
  '{"json":{"keyId":"0b9e5a61-…","organizationId":"5d2c6a0e-…","scopes":["organization:read","member:read"]}}',
].join("\n");

export function CallSection({ origin }: { origin: string }) {
  const { t } = useTranslation("integrators");
  return (
    <Card id="call" title={t("call.heading")} description={t("call.description")}>
      <div className="space-y-4">
        <CodeBlock caption={t("call.request")} code={requestText(origin)} copyLabel={t("call.request")} />
        <CodeBlock caption={t("call.answer")} code={ANSWER_TEXT} copyLabel={t("call.answer")} />
        <dl className="grid gap-x-4 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
          {ANSWER_FIELDS.map((field) => (
            <div key={field} className="contents">
              <dt>
                <Code>{field}</Code>
              </dt>
              <dd className="text-slate-600">{t(`call.fields.${field}`)}</dd>
            </div>
          ))}
        </dl>
        <p className="text-sm text-slate-600">
          {t("call.scopes", { max: MAX_REQUESTED_SCOPES })}{" "}
          {API_KEY_SCOPES.map((scope, index) => (
            <span key={scope}>
              {index > 0 ? ", " : null}
              <Code>{scope}</Code>
            </span>
          ))}
        </p>
        <p className="text-sm text-slate-600">{t("call.envelope")}</p>
      </div>
    </Card>
  );
}

export function ExamplesSection({ origin }: { origin: string }) {
  const { t } = useTranslation("integrators");
  return (
    <Card id="examples" title={t("examples.heading")} description={t("examples.description")}>
      <div className="space-y-4">
        {SAMPLE_LANGUAGES.map((language) => {
          const caption = t(`examples.languages.${language}`);
          return (
            <CodeBlock
              key={language}
              id={`example-${language}`}
              caption={caption}
              code={codeSample(language, origin)}
              copyLabel={t("examples.copy", { language: caption })}
            />
          );
        })}
      </div>
    </Card>
  );
}

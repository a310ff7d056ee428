// The secret format for secret scanners: the parts, the regular expressions, the checksum rule in
// words (tests/integration/integrator-page.test.ts implements the rule from these words and compares
// it with the app's parser), and the gitleaks rule to copy.
import {
  CURRENT_SECRET,
  CURRENT_SECRET_PARTS,
  LEGACY_SECRET,
  SECRET_PATTERN,
  SECRET_SCAN_PATTERN,
  gitleaksToml,
} from "~/api-keys/secret-format";
import { Card } from "~/components/ui";
import { useTranslation } from "~/i18n/use-translation";
import { Code, CodeBlock } from "./code-block";

const STEPS = ["take", "crc", "base62", "compare"] as const;

/** What each part looks like in the diagram. */
const PART_SAMPLES: Record<(typeof CURRENT_SECRET_PARTS)[number]["part"], string> = {
  marker: "sk_",
  random: "x".repeat(8) + "…",
  organization: "o".repeat(6) + "…",
  checksum: "cccccc",
};

function Parts() {
  const { t } = useTranslation("integrators");
  return (
    <ol className="grid gap-2 text-sm sm:grid-cols-4">
      {CURRENT_SECRET_PARTS.map(({ part, length }) => (
        <li key={part} className="rounded-md bg-slate-50 px-3 py-2 ring-1 ring-slate-200">
          <span className="block font-mono text-slate-900">{PART_SAMPLES[part]}</span>
          <span className="block text-xs text-slate-600">
            {t(`format.parts.${part}`)} ({length})
          </span>
        </li>
      ))}
    </ol>
  );
}

export function SecretFormatSection() {
  const { t } = useTranslation("integrators");
  return (
    <Card id="format" title={t("format.heading")} description={t("format.description")}>
      <div className="space-y-5 text-sm text-slate-700">
        <div className="space-y-2">
          <p className="font-medium text-slate-900">{t("format.current")}</p>
          <Parts />
          <p>{t("format.legacy")}</p>
        </div>
        <div className="space-y-2">
          <h3 className="font-semibold text-slate-900">{t("format.regexHeading")}</h3>
          <p>{t("format.anchored")}</p>
          <p>
            <Code>{SECRET_PATTERN}</Code> ({CURRENT_SECRET.length}: <Code>{CURRENT_SECRET.pattern}</Code>, {LEGACY_SECRET.length}:{" "}
            <Code>{LEGACY_SECRET.pattern}</Code>)
          </p>
          <p>{t("format.scanning")}</p>
          <CodeBlock caption="regex" code={SECRET_SCAN_PATTERN} copyLabel={t("format.copyPattern")} />
        </div>
        <div className="space-y-2">
          <h3 className="font-semibold text-slate-900">{t("format.checksumHeading")}</h3>
          <ol className="list-decimal space-y-1.5 pl-5" data-testid="checksum-steps">
            {STEPS.map((step) => (
              <li key={step}>{t(`format.checksumSteps.${step}`)}</li>
            ))}
          </ol>
          <p className="text-slate-600">{t("format.checksumNote")}</p>
        </div>
        <div className="space-y-2">
          <h3 className="font-semibold text-slate-900">{t("format.gitleaksHeading")}</h3>
          <p>{t("format.gitleaksHint")}</p>
          <CodeBlock caption=".gitleaks.toml" code={gitleaksToml()} copyLabel={t("format.copyRule")} />
        </div>
        <p className="text-slate-600">{t("format.leaked")}</p>
      </div>
    </Card>
  );
}

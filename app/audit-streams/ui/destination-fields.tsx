// One kind's fields, for the create form (a group per kind) and the edit form (the stream's own
// kind). Inputs are named `<group>.<field>` (`webhook.url`, `destination.token`), which conform
// reads as nested values (stream-forms.ts). No `required` attributes: without JavaScript the create
// form carries every kind's group, and the browser would refuse to submit the ones not chosen.
// Credentials are password inputs: when editing, they start empty and say that a value is stored
// (and, where a new address needs them again, that too).
import { useTranslation } from "~/i18n/use-translation";
import { Field, cx } from "~/components/ui";
import { CREDENTIAL_FIELDS, type StreamKind } from "~/audit-streams/destinations";

type FieldSpec = {
  name: string;
  label: `fields.${"url" | "secret" | "token" | "index" | "sourcetype" | "apiKey" | "service" | "tags" | "endpoint" | "region" | "bucket" | "prefix" | "accessKeyId" | "secretAccessKey"}`;
  hint?: `fields.${"webhookUrlHint" | "secretHint" | "splunkUrlHint" | "datadogUrlHint" | "tagsHint" | "endpointHint" | "prefixHint"}`;
  type?: "url" | "text";
  maxLength: number;
};

const KIND_FIELDS: { [K in StreamKind]: FieldSpec[] } = {
  webhook: [
    { name: "url", label: "fields.url", hint: "fields.webhookUrlHint", type: "url", maxLength: 2000 },
    { name: "secret", label: "fields.secret", hint: "fields.secretHint", maxLength: 200 },
  ],
  splunk: [
    { name: "url", label: "fields.url", hint: "fields.splunkUrlHint", type: "url", maxLength: 2000 },
    { name: "token", label: "fields.token", maxLength: 128 },
    { name: "index", label: "fields.index", maxLength: 80 },
    { name: "sourcetype", label: "fields.sourcetype", maxLength: 80 },
  ],
  datadog: [
    { name: "url", label: "fields.url", hint: "fields.datadogUrlHint", type: "url", maxLength: 2000 },
    { name: "apiKey", label: "fields.apiKey", maxLength: 64 },
    { name: "service", label: "fields.service", maxLength: 100 },
    { name: "tags", label: "fields.tags", hint: "fields.tagsHint", maxLength: 500 },
  ],
  s3: [
    { name: "endpoint", label: "fields.endpoint", hint: "fields.endpointHint", type: "url", maxLength: 2000 },
    { name: "region", label: "fields.region", maxLength: 32 },
    { name: "bucket", label: "fields.bucket", maxLength: 63 },
    { name: "prefix", label: "fields.prefix", hint: "fields.prefixHint", maxLength: 200 },
    { name: "accessKeyId", label: "fields.accessKeyId", maxLength: 128 },
    { name: "secretAccessKey", label: "fields.secretAccessKey", maxLength: 256 },
  ],
};

const isCredential = (kind: StreamKind, field: string) => (CREDENTIAL_FIELDS[kind] as readonly string[]).includes(field);

/** A stored credential's hint. Splunk's, Datadog's and S3's go only to the address they were
 * entered for, so a new one needs them typed again (stream-input.server.ts, movesCredentials); a
 * webhook's secret only signs and stays. */
const storedHint = (kind: StreamKind) => (kind === "webhook" ? "fields.storedHint" : "fields.storedAddressHint");

export function DestinationFields({
  kind,
  group,
  idPrefix,
  values,
  errors,
  storedCredentials,
}: {
  kind: StreamKind;
  /** The inputs' name prefix: the kind on the create form, `destination` on the edit form. */
  group: string;
  idPrefix: string;
  /** What the fields show: the last submission's values, or the stream's settings when editing. */
  values: Record<string, unknown>;
  /** Errors by full field name (`webhook.url`). */
  errors: Record<string, string[] | undefined>;
  /** Editing: the credential fields that hold a value (their inputs start empty; empty keeps it). */
  storedCredentials?: string[];
}) {
  const { t } = useTranslation("auditStreams");
  const text = (value: unknown) => (typeof value === "string" ? value : undefined);
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      {KIND_FIELDS[kind].map((field) => {
        const credential = isCredential(kind, field.name);
        const stored = credential && storedCredentials?.includes(field.name);
        const name = `${group}.${field.name}`;
        return (
          <div key={field.name} className={cx(field.type === "url" && "sm:col-span-2")}>
            <Field
              label={t(field.label)}
              name={name}
              id={`${idPrefix}-${field.name}`}
              errors={errors[name]}
              hint={stored ? t(storedHint(kind)) : field.hint ? t(field.hint) : undefined}
              type={credential ? "password" : field.type === "url" ? "url" : "text"}
              // A credential is never sent back to the page; "new-password" keeps browsers from
              // filling in the person's own sign-in password.
              autoComplete={credential ? "new-password" : "off"}
              spellCheck={false}
              maxLength={field.maxLength}
              defaultValue={credential ? undefined : text(values[field.name])}
              placeholder={stored ? "••••••••" : undefined}
            />
          </div>
        );
      })}
      {kind === "s3" ? (
        <label className="flex items-start gap-3 text-sm text-slate-800 sm:col-span-2">
          <input
            type="checkbox"
            name={`${group}.forcePathStyle`}
            defaultChecked={values.forcePathStyle === true || values.forcePathStyle === "on"}
            className="mt-0.5 h-4 w-4 shrink-0 accent-brand-600"
          />
          <span>{t("fields.forcePathStyle")}</span>
        </label>
      ) : null}
    </div>
  );
}

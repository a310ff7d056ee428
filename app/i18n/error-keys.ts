// Which strings are translation keys of ours under `errors:`. Validation messages come from our
// schemas (keys such as "field.tooLong") or from zod itself, whose messages can quote the caller's
// input ('Unrecognized key: "<any text>"'). Only known keys may reach i18next: it reads `$t(...)`
// inside a string as a nested lookup with options, so caller text must never be translated.
import type { ErrorKey } from "~/lib/error-key";
import en from "./locales/en/errors";

function leafKeys(tree: object, prefix = ""): string[] {
  return Object.entries(tree).flatMap(([key, value]) => {
    const path = `${prefix}${key}`;
    if (typeof value === "object" && value !== null) return leafKeys(value, `${path}.`);
    // Plural forms ("seconds_one") are looked up by their base ("seconds").
    return [path, path.replace(/_(zero|one|two|few|many|other)$/, "")];
  });
}

const ERROR_KEYS = new Set(leafKeys(en));

export function isErrorKey(value: string): value is ErrorKey {
  return ERROR_KEYS.has(value);
}

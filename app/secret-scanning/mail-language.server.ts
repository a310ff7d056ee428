// The languages a leak mail is written in, for one recipient. KeyLedger does not yet store a
// person's language (it is the visitor's cookie or browser, per request), so the mail carries both,
// English then German, as the streams' failing mail does (decision 0053). Once users have a stored
// language, this returns [that language] and nothing else changes.
import { supportedLanguages, type Language } from "~/i18n/config";

export function mailLanguagesFor(_recipient: { id: string }): readonly Language[] {
  return supportedLanguages;
}

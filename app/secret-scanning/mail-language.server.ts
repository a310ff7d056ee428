// The languages a leak mail is written in, for one recipient: the language the person last used
// here (users.language, stored on sign-up, sign-in and switching: decision 0058). A person with
// none stored yet (no sign-in since it is kept) gets English and German together, as the streams'
// failing mail does (decision 0053): a warning about a leaked secret must be understood.
import { isLanguage, supportedLanguages, type Language } from "~/i18n/config";

export function mailLanguagesFor(storedLanguage: string | null): readonly Language[] {
  return isLanguage(storedLanguage) ? [storedLanguage] : supportedLanguages;
}

// The translation keys an error may carry (DomainError's message, a schema's message): the keys
// under `errors:` in the locale files. lib cannot import the locales (app/i18n/ sits above it), so
// the i18n layer registers them here by declaration merging (app/i18n/keys.ts adds `keys`), the
// way React Router registers an app's routes for its typed href(). A key that does not exist
// fails tsc.
export interface ErrorKeyRegister {
  /** The namespace the registered keys live in. */
  readonly namespace: "errors";
}

export type ErrorKey = ErrorKeyRegister extends { keys: infer Key extends string } ? Key : string;

/** A schema's message as a key under `errors:`: `z.string().max(64, errorKey("field.tooLong"))`. */
export function errorKey<const Key extends ErrorKey>(key: Key): Key {
  return key;
}

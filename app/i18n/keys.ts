// Translation keys as types, read from the English locale files: `t("nav.dashbord")` or a
// DomainError with a key that `errors` does not have fails the type-check. This is our own small
// typing rather than i18next's (CustomTypeOptions): that one multiplied tsc's type instantiations
// by four, and it allows a `ns:` prefix only for the namespaces a `t` was made with, while our
// code reaches every namespace with one (all of them are bundled). German is typed against
// English in each locale file and in resources.ts, so both languages have exactly these keys.
import type { resources } from "./resources";

type English = (typeof resources)["en"];
export type NamespaceName = keyof English;

/** Plural forms ("seconds_one", "seconds_other") are asked for by their base ("seconds"). */
type PluralBase<Key extends string> = Key extends `${infer Base}_${"zero" | "one" | "two" | "few" | "many" | "other"}` ? Base | Key : Key;

/** "a.b.c" for every text in a locale tree. */
type Leaves<Tree, Prefix extends string = ""> = {
  [Key in keyof Tree & string]: Tree[Key] extends string ? `${Prefix}${PluralBase<Key>}` : Leaves<Tree[Key], `${Prefix}${Key}.`>;
}[keyof Tree & string];

/** A key of one namespace, without its prefix. */
export type KeyOf<N extends NamespaceName> = Leaves<English[N]>;

/** A key of any namespace with its prefix ("errors:notFound"): every namespace is bundled. */
export type QualifiedKey = { [N in NamespaceName]: `${N}:${KeyOf<N>}` }[NamespaceName];

/** What a `t` made for namespace `N` finds: its own keys, and any key with its namespace. */
export type TranslationKey<N extends NamespaceName> = KeyOf<N> | QualifiedKey;

/** Interpolation values, `count`, `defaultValue`. */
export type TranslateOptions = { readonly [option: string]: unknown };

/** i18next's `t`, typed by our keys. */
export interface Translate<N extends NamespaceName = "common"> {
  (key: TranslationKey<N>, options?: TranslateOptions): string;
  /** A key built from stored data (an action identifier, a target type) may have no text: its
   * fallback is then explicit. */
  (key: string, options: TranslateOptions & { defaultValue: string }): string;
}

declare module "~/lib/error-key" {
  interface ErrorKeyRegister {
    keys: KeyOf<"errors">;
  }
}

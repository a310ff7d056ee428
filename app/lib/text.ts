// One schema for every string we store (names, slugs, e-mail addresses, URLs, key names).
// PostgreSQL refuses NUL in text (a 500 if it gets that far); other control characters make lists
// and the audit log unreadable or misleading; a lone UTF-16 surrogate cannot be stored as UTF-8 at
// all and would silently become U+FFFD, so two different submitted names could collide. U+FFFD
// itself is refused too: in a submitted name it only ever means bytes that were not valid UTF-8.
// Client-safe: the forms validate with the same schema. Messages are translation keys under `errors:`.
import { z } from "zod";
import { errorKey, type ErrorKey } from "./error-key";

/** C0 controls (tab and newline included: stored text is single-line), DEL, C1 controls, the line
 * and paragraph separators, and invisible characters that make one name look like another or
 * reorder what follows it: soft hyphen, combining grapheme joiner, Hangul fillers, the Mongolian
 * vowel separator, zero-width space, word joiner, invisible operators, BOM, interlinear
 * annotations, and every bidirectional mark, embedding, override and isolate. Zero-width joiner
 * and non-joiner, variation selectors and tags stay: emoji and several scripts need them. */
const CONTROL_CHARACTER =
  /[\u0000-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u180e\u200b\u200e\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\u3164\ufeff\uffa0\ufff9-\ufffb]/;
/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const REPLACEMENT_CHARACTER = "\uFFFD";

export function hasLoneSurrogate(value: string): boolean {
  return LONE_SURROGATE.test(value);
}

/** `value` with each lone surrogate replaced by U+FFFD, as a UTF-8 encoder would (String.prototype.toWellFormed, ES2024). */
export function wellFormed(value: string): string {
  return value.replace(new RegExp(LONE_SURROGATE.source, "g"), REPLACEMENT_CHARACTER);
}

/** Text from outside that we keep only to show it (a User-Agent header): control and invisible
 * characters dropped, at most `max` characters, null when nothing readable is left. */
export function printableText(value: string | null | undefined, max: number): string | null {
  if (!value) return null;
  const cleaned = [...value.replace(new RegExp(CONTROL_CHARACTER.source, "g"), "")].slice(0, max).join("").trim();
  return cleaned !== "" && !hasLoneSurrogate(cleaned) ? cleaned : null;
}

/** Text that may be stored, and so searched for: no control, invisible or broken characters. */
export function isStorableText(value: string): boolean {
  return unstorableTextReason(value) === null;
}

/** Why a string cannot be stored, as a translation key, or null when it can. */
function unstorableTextReason(value: string): ErrorKey | null {
  if (CONTROL_CHARACTER.test(value)) return "field.controlCharacters";
  if (hasLoneSurrogate(value) || value.includes(REPLACEMENT_CHARACTER)) return "field.invalidCharacters";
  return null;
}

/** An optional query or form value: empty or blank means "not given"; anything else is trimmed
 * before `schema` sees it. */
export const optionalInput = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === "string" ? (v.trim() === "" ? undefined : v.trim()) : v), schema.optional());

/**
 * A trimmed, single-line string that PostgreSQL can store and a person can read, in Unicode
 * normalization form C (so "é" typed two ways is one name). Never empty ("field.required"); a
 * `min` above 1 is counted in characters and answered with "field.tooShort".
 */
export function storedText({ min = 1, max }: { min?: number; max: number }) {
  // One chain, no pipe: conform turns "" into undefined at every string schema it finds, so a
  // piped second string schema would see undefined after trimming "   ".
  return (
    z
      .string({ error: errorKey("field.required") })
      .trim()
      .superRefine((value, ctx) => {
        const reason = unstorableTextReason(value);
        if (reason) ctx.addIssue({ code: "custom", message: reason });
      })
      // Lone surrogates were refused above; normalize() would otherwise keep them.
      .overwrite((value) => (hasLoneSurrogate(value) ? value : value.normalize("NFC")))
      .min(1, errorKey("field.required"))
      // Counted in characters (code points), not UTF-16 units: 60 emoji are 60 characters.
      .superRefine((value, ctx) => {
        const length = [...value].length;
        if (length > 0 && length < min)
          ctx.addIssue({ code: "too_small", origin: "string", minimum: min, inclusive: true, message: errorKey("field.tooShort") });
        if (length > max)
          ctx.addIssue({ code: "too_big", origin: "string", maximum: max, inclusive: true, message: errorKey("field.tooLong") });
      })
  );
}

/** Lowercases A-Z only. String#toLowerCase maps some non-ASCII letters onto ASCII ones (the Kelvin
 * sign U+212A becomes "k"), which would let a look-alike pass an ASCII-only rule after the fact. */
export function asciiLowerCase(value: string): string {
  return value.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
}

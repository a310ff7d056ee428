// Where may we send someone after signing in? Only to a path on our own origin. A `redirectTo`
// value comes from a query string or a form, so it is attacker-chosen: "/\t/evil.example",
// "/%5Cevil.example", "//evil.example" and friends must never become a Location header that a
// browser follows off-site. The value is resolved against the origin the way a browser would, and
// only a same-origin result is kept, re-serialized (so the header holds printable ASCII only).
import { href } from "react-router";
import { hasLoneSurrogate } from "./text";

export const DEFAULT_REDIRECT = href("/dashboard");
const MAX_REDIRECT_LENGTH = 2048;
const PLACEHOLDER_ORIGIN = "https://redirect-check.invalid";

/** C0 controls, space, DEL, C1 controls, and the backslash that browsers read as a slash. */
const UNSAFE_CHARACTER = /[\u0000-\u0020\u007f-\u009f\\]/;

/** Percent-decodes repeatedly (at most a few rounds), so "%252F" is judged as "/" too. */
function decodedForms(value: string): string[] {
  const forms = [value];
  let current = value;
  for (let round = 0; round < 3; round++) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      return [...forms, "\u0000"]; // malformed escapes: refuse
    }
    if (next === current) break;
    forms.push(next);
    current = next;
  }
  return forms;
}

function looksSafe(form: string): boolean {
  return form.startsWith("/") && !form.startsWith("//") && !UNSAFE_CHARACTER.test(form);
}

/**
 * A same-origin path (with query and fragment) to redirect to, or `fallback`.
 * Accepts only values without control characters, spaces or backslashes whose path starts with a
 * single "/" and stays so in every percent-decoded form, and that resolve to the placeholder origin.
 */
export function safeRedirectPath(value: unknown, fallback = DEFAULT_REDIRECT): string {
  if (typeof value !== "string" || value.length === 0 || value.length > MAX_REDIRECT_LENGTH) return fallback;
  if (hasLoneSurrogate(value) || UNSAFE_CHARACTER.test(value)) return fallback;
  // Where a browser could be led elsewhere is the path; the query and fragment may carry any
  // encoded text ("?q=acme%20corp").
  const path = value.split(/[?#]/, 1)[0]!;
  if (!decodedForms(path).every(looksSafe)) return fallback;
  let url: URL;
  try {
    url = new URL(value, PLACEHOLDER_ORIGIN);
  } catch {
    return fallback;
  }
  if (url.origin !== PLACEHOLDER_ORIGIN) return fallback;
  const target = `${url.pathname}${url.search}${url.hash}`;
  // Re-check what we would actually send: "/." segments and the like are normalized away above.
  return looksSafe(target) && target.length <= MAX_REDIRECT_LENGTH ? target : fallback;
}

/** The sign-in page, asked to come back to `returnTo` (a path on our origin) afterwards. */
export function signInHref(returnTo: string, page = href("/login")): string {
  const target = safeRedirectPath(returnTo, "/");
  return target === "/" || target.startsWith(href("/login")) ? page : `${page}?redirectTo=${encodeURIComponent(target)}`;
}

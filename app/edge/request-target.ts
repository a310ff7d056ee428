// The request line and Host header, checked before anything builds a URL from them. Node hands us
// both as the client sent them: "Host: a b" or a request target like "http://x/y" (absolute form)
// or "*" would make `new URL` throw deep inside a handler, which used to end the process.

/** host [":" port], where host is a DNS name, an IPv4 address or a bracketed IPv6 literal. */
const HOST_HEADER = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9_.-]{0,251}[A-Za-z0-9])?)(?::\d{1,5})?$/;
const ABSOLUTE_FORM = /^https?:\/\//i;
const MAX_TARGET_LENGTH = 8 * 1024;

/** Host values already judged by acceptsHost; clients send the same few again and again. */
const judgedHosts = new Map<string, boolean>();
const MAX_JUDGED_HOSTS = 256;

/**
 * What resolveRequestTarget decides about a Host for an origin-form target, remembered: with
 * `appOrigin` the shape alone; without it, also that a URL can be built on it (`a:99999` or
 * `1.2.3.999` have the shape but no URL).
 */
export function acceptsHost(host: string, options: { appOrigin?: string; protocol: "http:" | "https:" }): boolean {
  if (options.appOrigin) return HOST_HEADER.test(host);
  const key = `${options.protocol}${host}`;
  let accepted = judgedHosts.get(key);
  if (accepted === undefined) {
    accepted = resolveRequestTarget("/", host, options).ok;
    if (judgedHosts.size >= MAX_JUDGED_HOSTS) judgedHosts.clear();
    judgedHosts.set(key, accepted);
  }
  return accepted;
}

export type ResolvedTarget = { ok: true; url: URL } | { ok: false };

/**
 * The URL a request addresses, or `{ ok: false }` when the request line or Host header is garbage.
 * - origin form ("/path?query") is the normal case;
 * - absolute form ("http://host/path") is accepted as RFC 9112 asks; its authority replaces Host;
 * - with `appOrigin` configured, URLs are built on it whatever the Host says (behind a proxy the
 *   Host may be internal, and no code should trust it), but a malformed Host is still refused.
 */
export function resolveRequestTarget(
  target: string | undefined,
  host: string | undefined,
  options: { appOrigin?: string; protocol: "http:" | "https:" },
): ResolvedTarget {
  if (!target || target.length > MAX_TARGET_LENGTH) return { ok: false };
  let path = target;
  let authority = host;
  if (ABSOLUTE_FORM.test(target)) {
    let absolute: URL;
    try {
      absolute = new URL(target);
    } catch {
      return { ok: false };
    }
    if (absolute.username || absolute.password) return { ok: false };
    path = `${absolute.pathname}${absolute.search}`;
    authority = absolute.host;
  }
  if (!path.startsWith("/")) return { ok: false };
  if (authority !== undefined && !HOST_HEADER.test(authority)) return { ok: false };
  const base = options.appOrigin ?? `${options.protocol}//${authority ?? "localhost"}`;
  let url: URL;
  try {
    // Concatenated, not resolved: "//evil.example/x" is a path here, not another authority.
    url = new URL(`${base}${path}`);
  } catch {
    return { ok: false };
  }
  return url.origin === new URL(base).origin ? { ok: true, url } : { ok: false };
}

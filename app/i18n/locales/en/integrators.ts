// The integrator page, /docs/authenticate: how a service checks the API keys its callers present.
export default {
  title: "Authenticate API keys",
  intro:
    "Your service receives requests that carry a KeyLedger API key. Before you serve one, ask KeyLedger whether the key is valid and holds the scopes the request needs.",
  openApi: "OpenAPI 3.1 document",
  openApiHint: "For API clients and code generators: every answer, with examples.",
  keysPageLink: "For integrators",
  backToKeys: "Back to API keys",
  toc: {
    label: "On this page",
    call: "The call",
    examples: "Examples",
    answers: "Answers",
    caching: "Caching",
    format: "Secret format",
  },
  call: {
    heading: "The call",
    description:
      "Send the key your caller presented as a Bearer token, and the scopes your endpoint needs. An empty list only checks whom the key belongs to.",
    request: "Request",
    answer: "Answer when the key may proceed (200)",
    scopes: "Scopes you can ask for (at most {{max}} in one call):",
    fields: {
      keyId: "The key's id. It stays the same when the key is rotated.",
      organizationId: "The organization the key belongs to: serve that organization's data, and no other's.",
      scopes: "Every scope the key holds.",
    },
    envelope: "Input and answer sit under “json”: the envelope of KeyLedger's RPC layer. Nothing else may be sent.",
  },
  examples: {
    heading: "Copy-paste examples",
    description:
      "Each example reads the presented key from the API_KEY environment variable, asks for organization:read and prints the answer.",
    copy: "Copy the {{language}} example",
    languages: {
      curl: "curl",
      node: "Node.js (fetch)",
      python: "Python (urllib, standard library)",
      go: "Go (net/http)",
    },
  },
  answers: {
    heading: "Answers and what to do",
    description:
      "Every answer is JSON. Errors carry a stable code and a message in the caller's language (send Accept-Language: de for German). Every answer carries an X-Request-Id header: quote it when you ask for help.",
    status: "Status",
    meaning: "What it means",
    action: "What to do",
    items: {
      ok: {
        meaning: "The key is active and holds every scope you asked for. Its last use is recorded.",
        action: "Serve the request, for the organization in organizationId only.",
      },
      badRequest: {
        meaning: "The body is not JSON, or not the input: an unknown scope, a missing or unexpected field, no “json” envelope.",
        action: "Fix your request; data.issues says which field is wrong. Sending it again will not help.",
      },
      unauthorized: {
        meaning: "The key is missing, malformed, unknown, expired or revoked: one answer for all of them.",
        action: "Refuse the request you are serving (answer your caller 401). Do not retry.",
      },
      forbidden: {
        meaning: "The key is valid but lacks at least one of the scopes you asked for.",
        action: "Refuse the request (answer your caller 403). The key's owner can issue a key with that scope.",
      },
      tooLarge: {
        meaning: "The body is larger than 64 KiB.",
        action: "Send only the scopes: the body is a few dozen bytes.",
      },
      unsupportedMediaType: {
        meaning: "The body was sent with another Content-Type than application/json (none at all is read as JSON).",
        action: "Send Content-Type: application/json.",
      },
      methodNotAllowed: {
        meaning: "Another method than POST.",
        action: "Use POST.",
      },
      unavailable: {
        meaning: "KeyLedger cannot reach its database. Nothing was decided about the key.",
        action:
          "Try again after the seconds in Retry-After. Until then, treat the key as neither valid nor refused: fail closed for anything sensitive.",
      },
    },
  },
  caching: {
    heading: "Caching answers",
    warning:
      "If you cache answers, a revoked or rotated key keeps working in your service for as long as its answer stays in your cache. KeyLedger refuses it at once; your cache does not know.",
    recommendation: "The call is one database statement: for most services, calling it on every request is fast enough. If you cache:",
    points: {
      shortPositive:
        "Keep a 200 for at most 60 seconds, counted from the answer, never renewed by a hit. That is the longest a revoked key may keep working.",
      cacheKey: "Key the cache by the SHA-256 of the secret and the scopes you asked for. Never store the secret itself.",
      negatives: "Never turn a 401 or 403 into a success. You may remember refusals for a few seconds to shed a flood of bad keys.",
      noErrors: "Never cache a 503 or a network error, and do not stretch a cached 200 past its time because KeyLedger is unreachable.",
      sensitive: "Do not cache at all for sensitive operations (changes, payments, administration): ask every time.",
      local: "Keep the cache in your process or a store you can empty: when a key leaks, empty it along with revoking the key.",
    },
  },
  format: {
    heading: "The secret format, for secret scanners",
    description:
      "KeyLedger secrets are made to be recognised: a scanner can find a leaked key and tell it from a random string without asking KeyLedger.",
    current: "Keys issued now: 76 characters",
    legacy: "Keys issued by earlier releases: 52 characters, still accepted (no organization part)",
    parts: {
      marker: "the marker",
      random: "43 random characters",
      organization: "24 characters naming the organization",
      checksum: "6 characters of checksum",
    },
    regexHeading: "Regular expressions",
    anchored: "A whole value (76 or 52 characters):",
    scanning: "In text (source files, logs, tickets): either length, standing alone:",
    checksumHeading: "The checksum",
    checksumSteps: {
      take: "Take everything before the last 6 characters, “sk_” included, as ASCII bytes.",
      crc: "Compute their CRC32 (IEEE 802.3: the CRC32 of zlib, gzip and PNG) as an unsigned 32-bit number.",
      base62:
        "Write that number in base 62 with the digits 0–9, A–Z, a–z in this order, most significant digit first, padded with leading 0 to 6 digits.",
      compare: "The secret is well formed when those 6 digits equal its last 6 characters.",
    },
    checksumNote:
      "A random string passes by chance once in about four billion tries. Only KeyLedger can tell whether a well-formed secret is a live key.",
    gitleaksHeading: "gitleaks rule",
    gitleaksHint: "Add it to your .gitleaks.toml (KeyLedger's repository ships it as docs/secret-scanning/gitleaks.toml):",
    copyRule: "Copy the gitleaks rule",
    copyPattern: "Copy the regular expression",
    leaked: "Found a leaked key? Its organization's owners and administrators should rotate or revoke it on the API keys page at once.",
  },
};

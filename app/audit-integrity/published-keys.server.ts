// The answer to GET /.well-known/audit-log-keys.json: the public keys the audit log's digests are
// signed with (the current one and the retired ones still trusted), for anyone checking an export
// offline (docs/audit-digests.md). Public: no session is read, any origin may fetch it, and caches
// may keep it a few minutes (a rotation is a restart: its new key is seen within that time, and a
// digest signed with it names its key id, so a checker that does not know the id fetches again).
import { env, type Env } from "~/env.server";
import { entityTagOf, ifNoneMatchNames } from "~/lib/entity-tag";
import { configuredKeys, publishedKey } from "./signing-keys";

/** Five minutes, as the OpenAPI document. */
const MAX_AGE_SECONDS = 300;

type KeyConfig = Pick<Env, "AUDIT_SIGNING_KEY" | "AUDIT_RETIRED_KEYS">;

/** The document's text, made once per configuration (it changes only with a restart). */
let cached: { config: KeyConfig; body: string; etag: string } | undefined;

/** `{"keys":[{"id","alg":"Ed25519","publicKey","status"}]}`; `{"keys":[]}` when no key is configured. */
export function publishedKeysDocument(config: KeyConfig): { keys: ReturnType<typeof publishedKey>[] } {
  return { keys: configuredKeys(config).map(publishedKey) };
}

function bodyFor(config: KeyConfig): { body: string; etag: string } {
  const same =
    cached &&
    cached.config.AUDIT_SIGNING_KEY === config.AUDIT_SIGNING_KEY &&
    cached.config.AUDIT_RETIRED_KEYS === config.AUDIT_RETIRED_KEYS;
  if (same && cached) return cached;
  const body = `${JSON.stringify(publishedKeysDocument(config), null, 2)}\n`;
  cached = { config, body, etag: entityTagOf(body) };
  return cached;
}

export function publishedKeysResponse(request: Request, config: KeyConfig = env()): Response {
  const { body, etag } = bodyFor(config);
  const headers = new Headers({
    "Cache-Control": `public, max-age=${MAX_AGE_SECONDS}`,
    ETag: etag,
    "Access-Control-Allow-Origin": "*",
  });
  if (ifNoneMatchNames(request.headers.get("if-none-match"), etag)) return new Response(null, { status: 304, headers });
  headers.set("Content-Type", "application/json; charset=utf-8");
  return new Response(body, { headers });
}

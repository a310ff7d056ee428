// The floor for apiKey.authenticate: the least a correct server can do with node:http and pg. Read
// the Bearer token and the body, SHA-256 the token, one `UPDATE … RETURNING` that finds an unrevoked,
// unexpired key and writes last used, a scope check, a JSON answer. No format or checksum check, no
// request id, no log line, no security headers, no metrics: what every real server adds is the
// distance measured from here. (bench/servers/baseline.ts runs the app's own statements instead.)
import { createHash } from "node:crypto";
import { servePlainAuthenticate } from "./plain-server.ts";

const statement = {
  name: "bare_authenticate",
  text: `UPDATE api_keys SET last_used_at = now()
          WHERE secret_hash = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())
      RETURNING id, organization_id, scopes`,
};

servePlainAuthenticate((req, scopes, pool, answer) => {
  const token = req.headers.authorization?.slice("Bearer ".length);
  if (!token) return answer(401, { code: "UNAUTHORIZED" });
  const hash = createHash("sha256").update(token).digest();
  pool.query({ ...statement, values: [hash] }).then(
    ({ rows }) => {
      const row = rows[0] as { id: string; organization_id: string; scopes: string[] } | undefined;
      if (!row) return answer(401, { code: "UNAUTHORIZED" });
      if (!scopes.every((s) => row.scopes.includes(s as string))) return answer(403, { code: "FORBIDDEN" });
      answer(200, { keyId: row.id, organizationId: row.organization_id, scopes: row.scopes });
    },
    () => answer(500, { code: "INTERNAL_SERVER_ERROR" }),
  );
});

// The baseline for apiKey.authenticate: plain node:http + pg doing the same work (parse the
// Bearer header and the body, check the key's format and checksum, SHA-256, the app's statement
// for the lookup, the scope check and last used, JSON answer) and nothing else.
import { AUTHENTICATE_SQL } from "../../app/api-keys/authenticate-sql.ts";
import { bearerSecret, hashSecret } from "../../app/api-keys/secret.server.ts";
import { servePlainAuthenticate } from "./plain-server.ts";

// The same statement as the app (imported, so the two cannot drift apart).
const statement = { name: "baseline_authenticate", text: AUTHENTICATE_SQL };
type Row = { id: string; organization_id: string; scopes: string[]; allowed: boolean };

servePlainAuthenticate((req, scopes, pool, answer) => {
  const secret = bearerSecret(req.headers.authorization);
  if (!secret) return answer(401, { code: "UNAUTHORIZED" });
  pool.query({ ...statement, values: [hashSecret(secret), scopes] }).then(
    ({ rows }) => {
      const row = rows[0] as Row | undefined;
      if (!row) return answer(401, { code: "UNAUTHORIZED" });
      if (!row.allowed) return answer(403, { code: "FORBIDDEN" });
      answer(200, { keyId: row.id, organizationId: row.organization_id, scopes: row.scopes });
    },
    () => answer(500, { code: "INTERNAL_SERVER_ERROR" }),
  );
});

// The baseline for apiKey.authenticate: plain node:http + pg doing the same work (parse the
// Bearer header and the body, check the key's format and checksum, SHA-256, the app's statement
// for the lookup, the scope check and last used, JSON answer) and nothing else. A secret of the
// older format (52 characters) first finds its organization in the lookup table, as the app's does
// (two round trips: design (b) of bench/authenticate-routing.ts); the app's fallback for a key
// without a lookup row is left out (no benchmark seeds one).
import { AUTHENTICATE_SQL, LEGACY_ORGANIZATION_SQL } from "../../app/api-keys/authenticate-sql.ts";
import { bearerSecret, hashSecret } from "../../app/api-keys/secret.server.ts";
import { servePlainAuthenticate } from "./plain-server.ts";

// The same statements as the app (imported, so the two cannot drift apart).
const statement = { name: "baseline_authenticate", text: AUTHENTICATE_SQL };
const lookup = { name: "baseline_legacy_organization", text: LEGACY_ORGANIZATION_SQL };
type Row = { id: string; organization_id: string; scopes: string[]; allowed: boolean };

servePlainAuthenticate((req, scopes, pool, answer) => {
  const presented = bearerSecret(req.headers.authorization);
  if (!presented) return answer(401, { code: "UNAUTHORIZED" });
  const hash = hashSecret(presented.secret);
  const authenticate = (organizationId: string) =>
    pool.query<Row>({ ...statement, values: [hash, scopes, organizationId] }).then(({ rows }) => {
      const row = rows[0];
      if (!row) return answer(401, { code: "UNAUTHORIZED" });
      if (!row.allowed) return answer(403, { code: "FORBIDDEN" });
      answer(200, { keyId: row.id, organizationId: row.organization_id, scopes: row.scopes });
    });
  const failed = () => answer(500, { code: "INTERNAL_SERVER_ERROR" });
  if (presented.organizationId) return void authenticate(presented.organizationId).catch(failed);
  pool
    .query<{ organization_id: string }>({ ...lookup, values: [hash] })
    .then(({ rows }) => (rows[0] ? authenticate(rows[0].organization_id) : answer(401, { code: "UNAUTHORIZED" })))
    .catch(failed);
});

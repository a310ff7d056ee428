// Design (c) of bench/authenticate-routing.ts, measured for what it would cost and not adopted: a
// secret without a routing part, its organization found by a subquery on the lookup table inside
// the app's one statement (one round trip). On one PostgreSQL that is as good as it sounds; on
// Citus the distribution column's value is then not known when the statement is planned, so it
// cannot be routed to one shard and goes to every one (docs/decisions/0048-routed-secrets.md).
// Otherwise the baseline's work: format and checksum, SHA-256, scope check, JSON answer.
import { AUTHENTICATE_SQL, LEGACY_ORGANIZATION_SQL } from "../../app/api-keys/authenticate-sql.ts";
import { bearerSecret, hashSecret } from "../../app/api-keys/secret.server.ts";
import { servePlainAuthenticate } from "./plain-server.ts";

const statement = {
  name: "subquery_authenticate",
  text: AUTHENTICATE_SQL.replaceAll("$3::uuid", `(${LEGACY_ORGANIZATION_SQL})`),
};
type Row = { id: string; organization_id: string; scopes: string[]; allowed: boolean };

servePlainAuthenticate((req, scopes, pool, answer) => {
  const presented = bearerSecret(req.headers.authorization);
  if (!presented) return answer(401, { code: "UNAUTHORIZED" });
  pool.query<Row>({ ...statement, values: [hashSecret(presented.secret), scopes] }).then(
    ({ rows }) => {
      const row = rows[0];
      if (!row) return answer(401, { code: "UNAUTHORIZED" });
      if (!row.allowed) return answer(403, { code: "FORBIDDEN" });
      answer(200, { keyId: row.id, organizationId: row.organization_id, scopes: row.scopes });
    },
    () => answer(500, { code: "INTERNAL_SERVER_ERROR" }),
  );
});

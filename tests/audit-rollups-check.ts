// What the audit log's rollups should hold, recounted from the events (decision 0049): the tests
// of the recorder, the bulk writers' recount and the upgrade's catch-up compare against it.
import { pool } from "~/db.server";

/** Rows of the rollups that differ from a recount of the organizations' events (none: they agree). */
export async function rollupDisagreements(organizationIds: string[]) {
  const { rows } = await pool().query(
    `WITH e AS (SELECT * FROM audit_events WHERE organization_id = ANY($1::uuid[])),
     days AS (
       SELECT 'days' AS rollup, organization_id, day::text AS key, e.events AS counted, d.events AS kept
         FROM (SELECT organization_id, (created_at AT TIME ZONE 'UTC')::date AS day, action, count(*) AS events FROM e GROUP BY 1, 2, 3) e
         FULL JOIN (SELECT * FROM audit_event_days WHERE organization_id = ANY($1::uuid[])) d USING (organization_id, day, action)
        WHERE e.events IS DISTINCT FROM d.events),
     actors AS (
       (SELECT 'actor missing', organization_id, actor_id || '/' || actor_kind, 1, 0 FROM e
        EXCEPT SELECT 'actor missing', organization_id, actor_id || '/' || actor_kind, 1, 0 FROM audit_event_actors)
       UNION ALL
       (SELECT 'actor extra', organization_id, actor_id || '/' || actor_kind, 0, 1 FROM audit_event_actors WHERE organization_id = ANY($1::uuid[])
        EXCEPT SELECT 'actor extra', organization_id, actor_id || '/' || actor_kind, 0, 1 FROM e)),
     named AS (SELECT organization_id, actor_id AS user_id FROM e WHERE actor_kind = 'user'
               UNION SELECT organization_id, target_id FROM e WHERE target_type = 'user'),
     users AS (
       (SELECT 'user missing', organization_id, user_id, 1, 0 FROM named
        EXCEPT SELECT 'user missing', organization_id, user_id, 1, 0 FROM audit_event_users)
       UNION ALL
       (SELECT 'user extra', organization_id, user_id, 0, 1 FROM audit_event_users WHERE organization_id = ANY($1::uuid[])
        EXCEPT SELECT 'user extra', organization_id, user_id, 0, 1 FROM named))
     SELECT * FROM days UNION ALL SELECT * FROM actors UNION ALL SELECT * FROM users`,
    [organizationIds],
  );
  return rows;
}

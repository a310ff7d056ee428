-- The application's role, and the audit log kept append-only by privileges instead of triggers
-- (docs/decisions/0049-append-only-by-privileges.md). Citus refuses triggers on distributed tables,
-- and these ran on every audited write: two that refused UPDATE, DELETE and TRUNCATE, and three
-- that kept the rollups (audit_event_days, audit_event_actors, audit_event_users). From now on:
--
-- - the app takes the role keyledger_app on every connection it opens (SET ROLE, app/db.server.ts);
--   the role may read and write what the app needs, but only SELECT and INSERT the audit log and
--   the support records; the migrations' role (the one running this file) owns every table;
-- - the recorder (app/audit/record.server.ts) writes the rollups in the statement that inserts the
--   event; bulk writers (the demo seed, the benchmarks' seeds, tests) recount them with
--   app/audit/rollups.server.ts.
--
-- An organization's deletion still removes its log: a foreign key's ON DELETE CASCADE runs as the
-- owner of the table it deletes from, not as the role that deleted the organization.

-- Roles belong to the cluster, not the database: another database of the same server (a test run's,
-- a second deployment's) may have made it, or be making it right now.
DO $$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'keyledger_app') THEN
        BEGIN
            CREATE ROLE keyledger_app NOLOGIN;
        EXCEPTION WHEN duplicate_object OR unique_violation THEN
            NULL;
        END;
    END IF;
END
$$;

-- The login that runs the migrations is by default the app's login too (one DATABASE_URL): it must
-- be allowed to SET ROLE keyledger_app. PostgreSQL 16 gives the role's creator only ADMIN on it
-- (createrole_self_grant unset), so that is granted here; a superuser needs nothing.
DO $$
DECLARE
    may_set boolean := pg_has_role(current_user, 'keyledger_app',
        CASE WHEN current_setting('server_version_num')::int >= 160000 THEN 'SET' ELSE 'MEMBER' END);
BEGIN
    IF NOT may_set THEN
        BEGIN
            EXECUTE format('GRANT keyledger_app TO %I', current_user);
        EXCEPTION WHEN insufficient_privilege OR invalid_grant_operation THEN
            RAISE EXCEPTION 'the role keyledger_app exists but % may not grant it to itself', current_user
                USING HINT = format('As a superuser or the role''s admin: GRANT keyledger_app TO %I', current_user);
        END;
    END IF;
END
$$;

-- What the app uses, in the schema Prisma's tables live in.
GRANT USAGE ON SCHEMA public TO keyledger_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO keyledger_app;
GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO keyledger_app;

-- The migrations' bookkeeping: read by the readiness check (is every migration applied?), written
-- only by the migrator.
REVOKE ALL ON "_prisma_migrations" FROM keyledger_app;
GRANT SELECT ON "_prisma_migrations" TO keyledger_app;

-- Append-only: the audit log and the support records are read and added to, never changed.
REVOKE UPDATE, DELETE, TRUNCATE ON "audit_events", "support_actions" FROM keyledger_app;

-- The rollups: the recorder adds rows and counts up a day's count (the column only); nothing the
-- app does removes them (they go with their organization, by the cascade).
REVOKE UPDATE, DELETE, TRUNCATE ON "audit_event_days", "audit_event_actors", "audit_event_users" FROM keyledger_app;
GRANT UPDATE ("events") ON "audit_event_days" TO keyledger_app;

-- The job queue's schema (graphile_worker) is opened to the role by the migrator after
-- graphile-worker's own migrations, every time they run (scripts/lib/job-queue-role.ts): its
-- tables keep row-level security on, which needs a policy per table, and a later graphile-worker
-- may add tables.

-- Whatever the migrations' role makes from now on (tables, sequences and schemas of later
-- migrations, graphile-worker's own upgrades) is the app's to use as above. A later table that must
-- be append-only revokes UPDATE and DELETE in its own migration, as this one does.
ALTER DEFAULT PRIVILEGES GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO keyledger_app;
ALTER DEFAULT PRIVILEGES GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO keyledger_app;
ALTER DEFAULT PRIVILEGES GRANT USAGE ON SCHEMAS TO keyledger_app;

-- The triggers and their functions.
DROP TRIGGER "audit_events_append_only" ON "audit_events";
DROP TRIGGER "audit_events_no_truncate" ON "audit_events";
DROP TRIGGER "audit_events_count_days" ON "audit_events";
DROP TRIGGER "audit_events_note_actors" ON "audit_events";
DROP TRIGGER "audit_events_note_users" ON "audit_events";
DROP TRIGGER "support_actions_append_only" ON "support_actions";
DROP TRIGGER "support_actions_no_truncate" ON "support_actions";
DROP FUNCTION "audit_events_refuse_change"();
DROP FUNCTION "audit_event_days_count"();
DROP FUNCTION "audit_event_actors_note"();
DROP FUNCTION "audit_event_users_note"();
DROP FUNCTION "support_actions_refuse_change"();

-- Distributes KeyLedger's tables on a Citus cluster: run once, as the tables' owner, on the coordinator,
-- after `npm run db:migrate` and before the app serves (docs/scale-out.md). Written from
-- prisma/citus/distribution.ts by `npm run citus:script`; tests/integration/citus-rules.test.ts keeps the
-- two the same and the schema within Citus's rules for these placements.
BEGIN;
SELECT create_reference_table('users');
SELECT create_reference_table('password_resets');
SELECT create_reference_table('email_verifications');
SELECT create_reference_table('email_changes');
SELECT create_reference_table('recovery_codes');
SELECT create_reference_table('server_secrets');
SELECT create_reference_table('organizations');
SELECT create_reference_table('memberships');
SELECT create_reference_table('organization_slugs');
SELECT create_reference_table('invitation_tokens');
SELECT create_reference_table('billing_provider_event_ids');
SELECT create_reference_table('api_key_legacy_secrets');
SELECT create_distributed_table('api_keys', 'organization_id', colocate_with => 'none');
SELECT create_distributed_table('api_key_leak_reports', 'organization_id', colocate_with => 'api_keys');
SELECT create_distributed_table('audit_events', 'organization_id', colocate_with => 'api_keys');
SELECT create_distributed_table('audit_event_days', 'organization_id', colocate_with => 'api_keys');
SELECT create_distributed_table('audit_event_actors', 'organization_id', colocate_with => 'api_keys');
SELECT create_distributed_table('audit_event_users', 'organization_id', colocate_with => 'api_keys');
SELECT create_distributed_table('invitations', 'organization_id', colocate_with => 'api_keys');
SELECT create_distributed_table('organization_logos', 'organization_id', colocate_with => 'api_keys');
SELECT create_distributed_table('billing_provider_events', 'organization_id', colocate_with => 'api_keys');
SELECT create_distributed_table('audit_streams', 'organization_id', colocate_with => 'api_keys');
SELECT create_distributed_table('audit_stream_failures', 'organization_id', colocate_with => 'api_keys');
SELECT create_distributed_table('audit_digests', 'organization_id', colocate_with => 'api_keys');
SELECT create_distributed_table('api_key_expiry_reminders', 'organization_id', colocate_with => 'api_keys');
-- Stay on the coordinator: sessions, support_access_grants, rate_limits, support_actions, _prisma_migrations, and the job queue's schema graphile_worker. Those with
-- foreign keys to reference tables become Citus local tables by themselves (citus.enable_local_reference_table_foreign_keys).
COMMIT;

-- keyledger:no-transaction
-- The key (organization_id, provider, event_id) that becomes billing_provider_events' primary key in
-- 20261204000006 (decision 0050); the global uniqueness of (provider, event_id) moves to the
-- billing_provider_event_ids lookup (20261204000007).
CREATE UNIQUE INDEX CONCURRENTLY "billing_provider_events_organization_id_provider_event_id_key" ON "billing_provider_events" ("organization_id", "provider", "event_id");

-- keyledger:no-transaction
-- The key (organization_id, id) that becomes audit_events' primary key in 20261204000006 (decision
-- 0050). CONCURRENTLY: on millions of events a plain build would stop every audited change.
CREATE UNIQUE INDEX CONCURRENTLY "audit_events_organization_id_id_key" ON "audit_events" ("organization_id", "id");

-- keyledger:no-transaction
-- The streams' read order: an organization's events by (writing transaction, id), legacy rows (NULL)
-- first as '0' (docs/decisions/0052-audit-streams.md). CONCURRENTLY: on millions of events a plain
-- build would stop every audited change while it runs.
CREATE INDEX CONCURRENTLY "audit_events_stream_order_idx" ON "audit_events" ("organization_id", (COALESCE("transaction_id", '0'::xid8)), "id");

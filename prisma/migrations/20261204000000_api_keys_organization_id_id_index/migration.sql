-- keyledger:no-transaction
-- The key (organization_id, id) that becomes api_keys' primary key in 20261204000006 (Citus: every
-- unique of a distributed table includes its distribution column; decision 0050). Built
-- CONCURRENTLY first so keys keep being issued and used while it builds.
CREATE UNIQUE INDEX CONCURRENTLY "api_keys_organization_id_id_key" ON "api_keys" ("organization_id", "id");

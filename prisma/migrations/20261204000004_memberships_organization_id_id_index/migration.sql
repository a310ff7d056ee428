-- keyledger:no-transaction
-- The key (organization_id, id) that becomes memberships' primary key in 20261204000006 (decision
-- 0050); the (organization_id, user_id) unique stays as it is.
CREATE UNIQUE INDEX CONCURRENTLY "memberships_organization_id_id_key" ON "memberships" ("organization_id", "id");

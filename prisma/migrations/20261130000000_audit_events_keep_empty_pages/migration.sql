-- Vacuum does not give the audit log's empty end pages back to the disk (they are reused instead):
-- cutting them off takes an ACCESS EXCLUSIVE lock, which a hot standby replays by waiting for (or
-- cancelling) the audit exports running there (docs/replica-setup.md, decision 0045). The log only
-- shrinks when an organization is deleted, so little space is kept back. A storage parameter: no
-- rewrite, and a lock that lets reads and writes go on.
ALTER TABLE "audit_events" SET (vacuum_truncate = off);

// The integrity page's address and the audit log's, for links both ways. Client-safe.
export const INTEGRITY_PAGE_PATH = "/dashboard/organization-settings/audit-log/integrity";
export const AUDIT_LOG_PATH = "/dashboard/organization-settings/audit-log";

/** The audit log with one event's detail open. */
export const eventLink = (eventId: string) => `${AUDIT_LOG_PATH}?${new URLSearchParams({ event: eventId })}`;

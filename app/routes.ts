import { type RouteConfig, index, layout, route } from "@react-router/dev/routes";

export default [
  index("routes/home.tsx"),
  route("login", "routes/login.tsx"),
  route("login/two-factor", "routes/login.two-factor.tsx"),
  route("signup", "routes/signup.tsx"),
  route("logout", "routes/logout.tsx"),
  route("forgot-password", "routes/forgot-password.tsx"),
  route("reset-password", "routes/reset-password.tsx"),
  route("verify-email", "routes/verify-email.tsx"),
  route("invitations/accept", "routes/invitations.accept.tsx"),
  // Logos: uploaded (POST, organization:update) and served (GET, members) by the app itself.
  route("api/organizations/:organizationId/logos", "routes/api.organizations.$organizationId.logos.ts"),
  route("api/organizations/:organizationId/logos/:logoId", "routes/api.organizations.$organizationId.logos.$logoId.ts"),
  // The audit log export: a streamed CSV or NDJSON download (owners and admins, plan with auditExport);
  // a refusal that a browser opened as a page is shown in the app shell, the frame around it.
  layout("routes/audit-export-frame.tsx", [
    route("api/organizations/:organizationId/audit-log/export", "routes/api.organizations.$organizationId.audit-log.export.tsx"),
    // The signed digests covering an export's range, for checking it offline (scripts/verify-audit-export.mjs).
    route("api/organizations/:organizationId/audit-log/digests", "routes/api.organizations.$organizationId.audit-log.digests.tsx"),
  ]),
  // The OpenAPI document of the integrator call (POST /rpc/apiKey/authenticate), and its guide.
  route("api/openapi.json", "routes/api.openapi-json.ts"),
  route("docs/authenticate", "routes/docs.authenticate.tsx"),
  // The public keys the audit log's digests are signed with (docs/audit-digests.md).
  route(".well-known/audit-log-keys.json", "routes/well-known.audit-log-keys-json.ts"),
  // The payment provider's events (signed; unsigned from the development provider on the embedded database).
  route("api/billing/provider-events", "routes/api.billing.provider-events.ts"),
  // GitHub's secret scanning partner reports (signed by GitHub; 404 until SECRET_SCANNING_PUBLIC_KEYS is set).
  route("api/secret-scanning/github", "routes/api.secret-scanning.github.ts"),
  route("dashboard", "routes/dashboard.tsx", [
    index("routes/dashboard._index.tsx"),
    route("organizations/new", "routes/dashboard.organizations.new.tsx"),
    // A mailed key link (expiry reminders): the key's organization, asked before switching to it.
    route("organizations/:organizationId/api-keys", "routes/dashboard.organizations.$organizationId.api-keys.tsx"),
    route("organization-settings", "routes/dashboard.organization-settings.tsx"),
    route("organization-settings/members", "routes/dashboard.organization-settings.members.tsx"),
    route("organization-settings/api-keys", "routes/dashboard.organization-settings.api-keys.tsx"),
    route("organization-settings/api-keys/lookup", "routes/dashboard.organization-settings.api-keys.lookup.tsx"),
    route("organization-settings/audit-log", "routes/dashboard.organization-settings.audit-log.tsx"),
    route("organization-settings/audit-log/integrity", "routes/dashboard.organization-settings.audit-log.integrity.tsx"),
    route("organization-settings/billing", "routes/dashboard.organization-settings.billing.tsx"),
    route("organization-settings/audit-streams", "routes/dashboard.organization-settings.audit-streams.tsx"),
    route("organization-settings/audit-streams/:streamId", "routes/dashboard.organization-settings.audit-streams.$streamId.tsx"),
    route("account", "routes/dashboard.account.tsx"),
    route("account/security", "routes/dashboard.account.security.tsx"),
    route("account/confirm-email", "routes/dashboard.account.confirm-email.tsx"),
    route("*", "routes/not-found.tsx", { id: "dashboard-not-found" }),
  ]),
  // Platform admin: the same shell; 404 for everyone else; a fresh session for every page.
  route("admin", "routes/admin.tsx", [
    index("routes/admin._index.tsx"),
    route("organizations", "routes/admin.organizations.tsx"),
    route("organizations/:organizationId", "routes/admin.organizations.$organizationId.tsx"),
    route("organizations/:organizationId/access", "routes/admin.organizations.$organizationId.access.tsx"),
    route("organizations/:organizationId/audit-log", "routes/admin.organizations.$organizationId.audit-log.tsx"),
    route("organizations/:organizationId/plan", "routes/admin.organizations.$organizationId.plan.tsx"),
    route("support-records", "routes/admin.support-records.tsx"),
    route("*", "routes/not-found.tsx", { id: "admin-not-found" }),
  ]),
  // /rpc never reaches React Router: the request edge hands it to oRPC (app/edge/request-edge.server.ts).
  route("healthz", "routes/healthz.ts"),
  route("ping", "routes/ping.ts"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;

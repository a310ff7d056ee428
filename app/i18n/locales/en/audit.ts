// Labels, descriptions and detail presentation of every audit action (app/audit/catalog.ts).
// Keys follow the action identifiers: `api_key.issued` → actions.api_key.issued.
export default {
  actions: {
    api_key: {
      issued: { label: "API key issued", description: "A new API key was issued. Its secret was shown once to the person who issued it." },
      rotated: { label: "API key rotated", description: "The key's secret was replaced. The previous secret stopped working at once." },
      revoked: { label: "API key revoked", description: "The key was revoked for good. Its secret is rejected from then on." },
    },
    invitation: {
      sent: { label: "Invitation sent", description: "Someone was invited to join the organization." },
      accepted: { label: "Invitation accepted", description: "An invitation was accepted and the person became a member." },
      canceled: { label: "Invitation canceled", description: "A pending invitation was canceled." },
    },
    member: {
      removed: { label: "Member removed", description: "A member was removed from the organization or left it." },
      role_changed: { label: "Member role changed", description: "A member's role in the organization changed." },
    },
    organization: {
      settings_changed: { label: "Organization settings changed", description: "The organization's name, slug, logo or security settings changed." },
    },
    audit: {
      exported: { label: "Audit log exported", description: "Someone downloaded the audit log. The file itself is not stored." },
    },
  },
  details: {
    raw: "Details",
    name: "Name",
    scopes: "Scopes",
    expiresAt: "Expires",
    role: "Role",
    userId: "User",
    reason: "Reason",
    from: "From",
    to: "To",
    automatic: "Automatic",
    slug: "Slug",
    logoUrl: "Logo",
    requireTwoFactor: "Two-factor authentication required",
    format: "Format",
    filters: "Filters",
    action: "Action",
    actorId: "Actor",
  },
  values: {
    never: "Never",
    none: "—",
    yes: "Yes",
    no: "No",
    change: "{{from}} → {{to}}",
    reason: { removed: "Removed by an owner or admin", left: "Left the organization" },
    format: { csv: "CSV", json: "NDJSON" },
  },
  actorKinds: { user: "User", api_key: "API key", job: "Job", agent: "Agent", system: "System" },
  targetTypes: { api_key: "API key", invitation: "Invitation", user: "Member", organization: "Organization" },
  unknownAction: "Unknown action ({{action}})",
};

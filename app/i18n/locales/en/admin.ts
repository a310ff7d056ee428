export default {
  nav: "Platform admin",
  organizations: {
    title: "Organizations",
    description: "Every organization on this installation. Opening one does not make you a member.",
    name: "Name",
    slug: "Slug",
    plan: "Plan",
    members: "Members",
    created: "Created",
    open: "Open",
    empty: "No organizations yet.",
  },
  organization: {
    title: "Organization",
    overview: "Overview",
    auditLog: "Audit log",
    auditLogDescription: "The organization's audit log, exactly as its owners and admins see it.",
    back: "All organizations",
    requireTwoFactor: "Two-factor authentication required",
    yes: "Yes",
    no: "No",
  },
};

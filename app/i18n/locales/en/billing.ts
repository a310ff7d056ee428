// The billing page (app/billing/ui/) and the provider-events endpoint's answers.
export default {
  title: "Billing",
  description: "The plan and billing state of {{name}}.",
  readOnly: "Only owners can change the plan or the subscription. You can see them here.",
  notConfigured: "Billing is not set up on this installation: the plan cannot be changed here.",
  current: {
    title: "Current plan",
    plan: "Plan",
    state: "Billing state",
  },
  states: {
    active: { label: "Active", explanation: "Everything the plan includes is available." },
    past_due: {
      label: "Payment overdue",
      explanation: "The last payment failed. Everything stays available for now; if the next attempt fails too, paid features are paused.",
    },
    past_due_blocked: {
      label: "Payment overdue, paused",
      explanation: "Two payments failed in a row. Paid features such as audit log export are paused until a payment goes through.",
    },
    canceled: {
      label: "Canceled",
      explanation: "The subscription is canceled. Paid features such as audit log export are paused until an owner resumes it.",
    },
  },
  plans: {
    title: "Plans",
    description: "What each plan includes.",
    current: "Current plan",
    included: "Included",
    notIncluded: "Not included",
    switchTo: "Switch to {{plan}}",
    features: { auditExport: "Audit log export (CSV and NDJSON)", auditStreaming: "Audit log streaming to your SIEM, webhook or bucket" },
  },
  /** Each plan's card: price, who it is for, and what it includes (app/plans/catalog.ts PLAN_HIGHLIGHTS). */
  offer: {
    perMonth: "per month",
    price: "{{price}} per month",
    taglines: {
      free: "To try KeyLedger and for small projects",
      team: "For teams running integrations in production",
      enterprise: "For audits and compliance: export and stream the whole log",
    },
    highlights: {
      apiKeys: "API keys with scopes, expiry and rotation (25 in use)",
      auditLog: "Audit log with filters, history and activity chart",
      members: "Members, roles and invitations",
      twoFactor: "Two-factor authentication, required for everyone if you wish",
      communitySupport: "Community support",
      emailSupport: "E-mail support, answered within one business day",
      auditExport: "Audit log export (CSV and NDJSON)",
      auditStreaming: "Audit log streaming to your SIEM, webhook or bucket",
      prioritySupport: "Priority support with a named contact",
    },
  },
  checkout: {
    title: "Switch to the {{plan}} plan?",
    body: "The organization moves from {{from}} to {{plan}} now. The change is recorded in the audit log.",
    confirm: "Switch plan",
    keep: "Keep the current plan",
  },
  cancel: {
    title: "Subscription",
    description: "Canceling pauses paid features until an owner resumes the subscription.",
    button: "Cancel subscription",
    heading: "Cancel the {{plan}} subscription?",
    body: "Paid features such as audit log export are paused until an owner resumes the subscription. The change is recorded in the audit log.",
    confirm: "Cancel subscription",
    keep: "Keep subscription",
  },
  resume: {
    description: "Resuming renews the {{plan}} plan and makes its features available again.",
    button: "Resume subscription",
    heading: "Resume the {{plan}} subscription?",
    body: "The {{plan}} plan renews now and its features are available again. The change is recorded in the audit log.",
    confirm: "Resume subscription",
    keep: "Not now",
  },
  done: {
    checkout: "The organization is now on the {{plan}} plan.",
    cancel: "The subscription is canceled.",
    resume: "The subscription is active again.",
  },
  confirmMissing: "That change is not available. Choose it again below.",
  events: {
    applied: "The event was applied.",
    unchanged: "The event was received; it changed nothing.",
    already_processed: "This event was already processed; nothing changed.",
  },
};

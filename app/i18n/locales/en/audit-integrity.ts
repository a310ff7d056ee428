// The audit log's integrity page: whether the log is sealed, and the verification against its
// signed digests (docs/decisions/0062-audit-verification.md).
export default {
  title: "Audit log integrity",
  description:
    "Check that {{organization}}'s audit log holds exactly what its signed digests sealed: no event altered, inserted or deleted.",
  /** The link on the audit log page. */
  auditLogLink: "Verify integrity",
  backToLog: "Audit log",
  sealing: {
    heading: "Sealing",
    sealed: "The log is sealed: every closed period's events are signed into a digest, each linked to the one before.",
    noKey: "No signing key is configured (AUDIT_SIGNING_KEY), so no digests are written and the log cannot be verified.",
    noDigest: "No digest has been written for this log yet. Events are sealed once their period closes.",
    keys: "Signing keys",
    keyCurrent: "current",
    keyRetired: "retired",
    newest: "Newest digest",
    newestValue_one: "No. {{sequence}} ({{count, number}} event), closed",
    newestValue_other: "No. {{sequence}} ({{count, number}} events), closed",
    digests: "Digests",
    publicKeys: "Public keys (JSON)",
  },
  form: {
    heading: "Verify",
    hint: "Leave both days empty to check the whole log. Days are UTC and pick the digests whose period overlaps them.",
    from: "From",
    to: "To",
    submit: "Verify",
    running: "Verifying…",
  },
  verdict: {
    heading: "Result",
    intact: "Intact: the log matches its digests.",
    tampered_one: "Tampered: {{count, number}} finding.",
    tampered_other: "Tampered: {{count, number}} findings.",
    unsealed: "Not verified.",
    counts: "Digests checked: {{digests, number}} · events checked: {{events, number}} · recent events not sealed yet: {{pending, number}}",
    range: "Digests from {{first}} to {{last}}.",
    more: "… and {{count, number}} more findings not listed. Use npm run audit:verify for the full list.",
    reasons: {
      "no-key": "No signing key is configured, so the log cannot be verified.",
      "no-digest": "The log is not sealed yet: there is no digest to verify against.",
      "no-digest-in-range": "No digest covers the days you chose.",
    },
    openEvent: "Open the event",
  },
  findings: {
    "event-altered": "Event {{eventId}} ({{time}}) was altered: its content differs from what digest {{sequence}} sealed.",
    "event-inserted": "Event {{eventId}} ({{time}}) was inserted into the range of digest {{sequence}}, which does not hold it.",
    "event-inserted-after":
      "Event {{eventId}} ({{time}}) was inserted after the newest digest: it had committed before that digest was made, or its transaction never existed.",
    "event-deleted": "Event {{eventId}} ({{time}}) was deleted: digest {{sequence}} sealed it, the log no longer holds it.",
    "event-moved":
      "Event {{eventId}} ({{time}}) was moved: digest {{sequence}} sealed it, but its transaction id was changed, so it now sorts into the range of digest {{foundIn}}.",
    "event-moved-after":
      "Event {{eventId}} ({{time}}) was moved: digest {{sequence}} sealed it, but its transaction id was changed, so it now sorts after the newest digest.",
    "digest-missing": "Digest {{first}} is missing: {{events, number}} events in the range it covered cannot be checked.",
    "digests-missing": "Digests {{first}} to {{last}} are missing: {{events, number}} events in the range they covered cannot be checked.",
    "bad-signature": "Digest {{sequence}} has a bad signature: it does not hold under key {{keyId}}.",
    "unknown-key": "Digest {{sequence}} is signed with key {{keyId}}, which is neither the current nor a retired signing key.",
    "key-replaced":
      "Digest {{sequence}} is signed with key {{keyId}}, which earlier digests had already been rotated away from: a retired key signed again.",
    "chain-broken": "Digest {{sequence}} does not link to digest {{previous}}: the chain is broken.",
    "digest-row-mismatch":
      "The stored digest no. {{sequence}} disagrees with its signed document (digest {{documentSequence}}; {{columns}}): digests were swapped or edited.",
    "digest-row-unreadable": "The stored digest no. {{sequence}} holds no readable signed document.",
    "entries-altered": "The event list stored with digest {{sequence}} was altered: it is not the one the signed digest commits to.",
    "sealing-overdue":
      "{{count, number}} events since {{time}} are still not sealed: the newest digests are missing or the digest job is not running.",
  },
};

// E-mails. Plain text and HTML are built from the same strings.
export default {
  invitation: {
    subject: "{{inviter}} invited you to {{organization}} on KeyLedger",
    greeting: "Hello,",
    body: "{{inviter}} invited you to join {{organization}} on KeyLedger as {{role}}.",
    action: "Accept the invitation",
    linkIntro: "Open this link to accept:",
    expiry:
      "The link works until {{date}} (UTC) and only for the account with this e-mail address. If you have no account yet, you can create one on the way.",
    ignore: "If you did not expect this invitation, you can ignore this e-mail.",
    someone: "Someone",
  },
};

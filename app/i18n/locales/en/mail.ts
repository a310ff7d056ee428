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
  passwordReset: {
    subject: "Reset your KeyLedger password",
    greeting: "Hello {{name}},",
    body: "Someone (hopefully you) asked to reset the password of your KeyLedger account.",
    action: "Choose a new password",
    linkIntro: "Or open this link:",
    expiry: "The link works once, for {{minutes}} minutes (until {{date}} UTC). Using it signs your account out everywhere.",
    ignore: "If you did not ask for this, ignore this e-mail: your password stays as it is.",
  },
};

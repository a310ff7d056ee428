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
  verifyEmail: {
    subject: "Confirm your e-mail address for KeyLedger",
    greeting: "Hello {{name}},",
    body: "Welcome to KeyLedger. Confirm that this is your address to finish creating your account: the page asks for the password you chose when signing up.",
    action: "Confirm my address",
    linkIntro: "Open this link to confirm your address:",
    expiry: "The link works once, for {{hours}} hours (until {{date}} UTC).",
    ignore:
      "If you did not sign up for KeyLedger, do not confirm anything and ignore this e-mail: someone else used your address. Unconfirmed, the account can neither sign in nor create organizations.",
  },
  signUpAttempt: {
    subject: "Someone tried to sign up for KeyLedger with your address",
    greeting: "Hello {{name}},",
    body: "Someone (perhaps you) tried to create a KeyLedger account with this e-mail address. You already have an account, so nothing was changed.",
    action: "Sign in",
    linkIntro: "To sign in, open this link:",
    resetIntro: "Forgot your password? Choose a new one here:",
    ignore: "If this was not you, you can ignore this e-mail: your account and password stay as they are.",
  },
  emailChange: {
    subject: "Confirm your new e-mail address for KeyLedger",
    greeting: "Hello {{name}},",
    body: "You asked to change your KeyLedger account's address to {{email}}. Open the link while signed in to confirm.",
    action: "Confirm the new address",
    linkIntro: "Open this link to confirm the new address:",
    expiry: "The link works once, for {{hours}} hours (until {{date}} UTC).",
    ignore: "If you did not ask for this, ignore this e-mail: nothing changes.",
  },
  emailChangeTaken: {
    subject: "This address already has a KeyLedger account",
    body: "Someone asked to move a KeyLedger account to this e-mail address. This address already has an account, so nothing was changed.",
    action: "Sign in",
    linkIntro: "To sign in to your account, open this link:",
    ignore: "If this was not you, you can ignore this e-mail.",
  },
  emailChanged: {
    subject: "Your KeyLedger address was changed",
    greeting: "Hello {{name}},",
    body: "Your KeyLedger account's e-mail address was changed to {{email}}. From now on, sign in with the new address.",
    action: "Sign in",
    linkIntro: "To sign in, open this link:",
    notYou:
      "If you did not make this change, someone who knows your password did: tell your organization's owners or your KeyLedger administrator at once.",
  },
  passwordReset: {
    subject: "Reset your KeyLedger password",
    greeting: "Hello {{name}},",
    body: "Someone (hopefully you) asked to reset the password of your KeyLedger account.",
    action: "Choose a new password",
    linkIntro: "Open this link to choose a new password:",
    expiry: "The link works once, for {{minutes}} minutes (until {{date}} UTC). Using it signs your account out everywhere.",
    ignore: "If you did not ask for this, ignore this e-mail: your password stays as it is.",
  },
  auditStreamFailing: {
    subject: "Audit stream “{{stream}}” of {{organization}} is failing",
    greeting: "Hello {{person}},",
    body: "Since {{since}} (UTC), KeyLedger has not been able to deliver the audit log of {{organization}} to the stream “{{stream}}” ({{destination}}). The latest attempt failed: {{failure}}.",
    retrying:
      "KeyLedger keeps trying, with pauses of up to five minutes, and delivers everything from where it stopped as soon as the destination accepts events again: no event is lost.",
    action: "Open the stream's delivery page",
    linkIntro: "Open this link to see the failures and the stream's settings:",
    once: "You receive this e-mail once per outage because you are an owner of {{organization}}.",
  },
};

import type en from "~/i18n/locales/en/mail";

export default {
  invitation: {
    subject: "{{inviter}} hat Sie zu {{organization}} auf KeyLedger eingeladen",
    greeting: "Hallo,",
    body: "{{inviter}} hat Sie eingeladen, {{organization}} auf KeyLedger als {{role}} beizutreten.",
    action: "Einladung annehmen",
    linkIntro: "Öffnen Sie diesen Link, um anzunehmen:",
    expiry:
      "Der Link gilt bis {{date}} (UTC) und nur für das Konto mit dieser E-Mail-Adresse. Wenn Sie noch kein Konto haben, können Sie unterwegs eines anlegen.",
    ignore: "Wenn Sie diese Einladung nicht erwartet haben, können Sie diese E-Mail ignorieren.",
    someone: "Jemand",
  },
  passwordReset: {
    subject: "Ihr KeyLedger-Passwort zurücksetzen",
    greeting: "Hallo {{name}},",
    body: "Jemand (hoffentlich Sie) hat angefragt, das Passwort Ihres KeyLedger-Kontos zurückzusetzen.",
    action: "Neues Passwort wählen",
    linkIntro: "Oder öffnen Sie diesen Link:",
    expiry:
      "Der Link funktioniert einmal, {{minutes}} Minuten lang (bis {{date}} UTC). Wenn Sie ihn nutzen, wird Ihr Konto überall abgemeldet.",
    ignore: "Wenn Sie das nicht angefragt haben, ignorieren Sie diese E-Mail: Ihr Passwort bleibt unverändert.",
  },
} satisfies typeof en;

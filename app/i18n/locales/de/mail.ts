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
} satisfies typeof en;

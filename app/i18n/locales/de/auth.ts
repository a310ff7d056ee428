import type en from "~/i18n/locales/en/auth";

export default {
  login: {
    title: "Anmelden",
    heading: "Bei Ihrem Konto anmelden",
    email: "E-Mail-Adresse",
    password: "Passwort",
    submit: "Anmelden",
    noAccount: "Noch kein Konto?",
    signUpLink: "Jetzt erstellen",
    signInAgain: "Zu Ihrer Sicherheit melden Sie sich bitte erneut an, um zur gewünschten Seite zu gelangen.",
  },
  signup: {
    title: "Konto erstellen",
    heading: "Erstellen Sie Ihr Konto",
    name: "Ihr Name",
    email: "E-Mail-Adresse",
    password: "Passwort",
    passwordHint: "Mindestens {{min}} Zeichen.",
    confirmPassword: "Passwort wiederholen",
    submit: "Konto erstellen",
    haveAccount: "Sie haben bereits ein Konto?",
    signInLink: "Anmelden",
  },
  twoFactorStep: {
    title: "Zwei-Faktor-Authentifizierung",
    heading: "Authentifizierungscode eingeben",
    intro: "Öffnen Sie Ihre Authenticator-App und geben Sie den 6-stelligen Code für {{email}} ein.",
    code: "Authentifizierungscode",
    recoveryHint: "Gerät verloren? Geben Sie stattdessen einen Ihrer Wiederherstellungscodes ein.",
    submit: "Bestätigen",
    cancel: "Mit einem anderen Konto anmelden",
  },
  logout: { submit: "Abmelden" },
} satisfies typeof en;

import type en from "../en/two-factor";

export default {
  title: "Sicherheit",
  heading: "Zwei-Faktor-Authentifizierung",
  statusOn: "Die Zwei-Faktor-Authentifizierung ist eingeschaltet.",
  statusOff: "Die Zwei-Faktor-Authentifizierung ist ausgeschaltet. Sichern Sie die Anmeldung mit einer Authenticator-App zusätzlich ab.",
  start: "Zwei-Faktor-Authentifizierung einrichten",
  scan: "Scannen Sie diesen QR-Code mit Ihrer Authenticator-App oder geben Sie den Schlüssel von Hand ein.",
  manualKey: "Schlüssel zur manuellen Eingabe",
  qrAlt: "QR-Code für Ihre Authenticator-App",
  code: "6-stelliger Code aus der App",
  confirm: "Bestätigen und einschalten",
  recoveryTitle: "Wiederherstellungscodes sichern",
  recoveryIntro: "Jeder Code meldet Sie einmal an, falls Sie Ihr Gerät verlieren. Sie werden nur jetzt angezeigt: Bewahren Sie sie sicher auf.",
  recoveryDone: "Ich habe meine Wiederherstellungscodes gesichert",
  recoveryRemaining: "Unbenutzte Wiederherstellungscodes: {{count}}",
  regenerate: "Neue Wiederherstellungscodes erstellen",
  regenerateHint: "Ersetzt alle bisherigen Wiederherstellungscodes. Bestätigen Sie mit einem Code aus Ihrer App.",
  disable: "Zwei-Faktor-Authentifizierung ausschalten",
  disableHint: "Bestätigen Sie mit einem Code aus Ihrer App.",
  disabled: "Die Zwei-Faktor-Authentifizierung ist jetzt ausgeschaltet.",
  enabled: "Die Zwei-Faktor-Authentifizierung ist jetzt eingeschaltet.",
} satisfies typeof en;

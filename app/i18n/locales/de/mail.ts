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
  verifyEmail: {
    subject: "Bestätigen Sie Ihre E-Mail-Adresse für KeyLedger",
    greeting: "Hallo {{name}},",
    body: "Willkommen bei KeyLedger. Bestätigen Sie, dass dies Ihre Adresse ist, um Ihr Konto fertig anzulegen: Die Seite fragt nach dem Passwort, das Sie bei der Registrierung gewählt haben.",
    action: "Adresse bestätigen",
    linkIntro: "Öffnen Sie diesen Link, um Ihre Adresse zu bestätigen:",
    expiry: "Der Link funktioniert einmal, {{hours}} Stunden lang (bis {{date}} UTC).",
    ignore:
      "Wenn Sie sich nicht bei KeyLedger registriert haben, bestätigen Sie nichts und ignorieren Sie diese E-Mail: Dann hat jemand anderes Ihre Adresse verwendet. Unbestätigt kann sich das Konto weder anmelden noch Organisationen erstellen.",
  },
  signUpAttempt: {
    subject: "Jemand wollte sich mit Ihrer Adresse bei KeyLedger registrieren",
    greeting: "Hallo {{name}},",
    body: "Jemand (vielleicht Sie) wollte mit dieser E-Mail-Adresse ein KeyLedger-Konto anlegen. Sie haben bereits ein Konto, daher wurde nichts geändert.",
    action: "Anmelden",
    linkIntro: "Zum Anmelden öffnen Sie diesen Link:",
    resetIntro: "Passwort vergessen? Hier wählen Sie ein neues:",
    ignore: "Wenn Sie das nicht waren, können Sie diese E-Mail ignorieren: Ihr Konto und Ihr Passwort bleiben unverändert.",
  },
  emailChange: {
    subject: "Bestätigen Sie Ihre neue E-Mail-Adresse für KeyLedger",
    greeting: "Hallo {{name}},",
    body: "Sie möchten die Adresse Ihres KeyLedger-Kontos auf {{email}} ändern. Öffnen Sie den Link, während Sie angemeldet sind, um das zu bestätigen.",
    action: "Neue Adresse bestätigen",
    linkIntro: "Öffnen Sie diesen Link, um die neue Adresse zu bestätigen:",
    expiry: "Der Link funktioniert einmal, {{hours}} Stunden lang (bis {{date}} UTC).",
    ignore: "Wenn Sie das nicht angefragt haben, ignorieren Sie diese E-Mail: Es ändert sich nichts.",
  },
  emailChangeTaken: {
    subject: "Für diese Adresse gibt es bereits ein KeyLedger-Konto",
    body: "Jemand wollte ein KeyLedger-Konto auf diese E-Mail-Adresse umstellen. Für diese Adresse gibt es bereits ein Konto, daher wurde nichts geändert.",
    action: "Anmelden",
    linkIntro: "Um sich bei Ihrem Konto anzumelden, öffnen Sie diesen Link:",
    ignore: "Wenn Sie das nicht waren, können Sie diese E-Mail ignorieren.",
  },
  emailChanged: {
    subject: "Ihre KeyLedger-Adresse wurde geändert",
    greeting: "Hallo {{name}},",
    body: "Die E-Mail-Adresse Ihres KeyLedger-Kontos wurde auf {{email}} geändert. Melden Sie sich ab jetzt mit der neuen Adresse an.",
    action: "Anmelden",
    linkIntro: "Zum Anmelden öffnen Sie diesen Link:",
    notYou:
      "Wenn Sie die Änderung nicht selbst vorgenommen haben, hat es jemand getan, der Ihr Passwort kennt: Informieren Sie sofort die Inhaber Ihrer Organisation oder Ihren KeyLedger-Administrator.",
  },
  passwordReset: {
    subject: "Ihr KeyLedger-Passwort zurücksetzen",
    greeting: "Hallo {{name}},",
    body: "Jemand (hoffentlich Sie) hat angefragt, das Passwort Ihres KeyLedger-Kontos zurückzusetzen.",
    action: "Neues Passwort wählen",
    linkIntro: "Öffnen Sie diesen Link, um ein neues Passwort zu wählen:",
    expiry:
      "Der Link funktioniert einmal, {{minutes}} Minuten lang (bis {{date}} UTC). Wenn Sie ihn nutzen, wird Ihr Konto überall abgemeldet.",
    ignore: "Wenn Sie das nicht angefragt haben, ignorieren Sie diese E-Mail: Ihr Passwort bleibt unverändert.",
  },
  auditStreamFailing: {
    subject: "Audit-Stream „{{stream}}“ von {{organization}} schlägt fehl",
    greeting: "Hallo {{person}},",
    body: "Seit {{since}} (UTC) kann KeyLedger das Audit-Log von {{organization}} nicht an den Stream „{{stream}}“ ({{destination}}) zustellen. Der letzte Versuch schlug fehl: {{failure}}.",
    retrying:
      "KeyLedger versucht es weiter, mit Pausen von bis zu fünf Minuten, und stellt alles ab der Stelle zu, an der es stehen blieb, sobald das Ziel wieder Ereignisse annimmt: Kein Ereignis geht verloren.",
    action: "Zustellseite öffnen",
    linkIntro: "Öffnen Sie diesen Link, um die Fehler und die Einstellungen des Streams zu sehen:",
    failures: {
      address_refused: "die Adresse des Ziels ist nicht erlaubt (Loopback, privat oder link-lokal)",
      dns: "der Hostname des Ziels ließ sich nicht auflösen",
      network: "die Verbindung schlug fehl ({{detail}})",
      tls: "die TLS-Verbindung schlug fehl ({{detail}})",
      timeout: "das Ziel hat nicht rechtzeitig geantwortet",
      redirect: "das Ziel antwortete mit einer Weiterleitung (HTTP {{status}}), der nicht gefolgt wird",
      http_status: "das Ziel antwortete mit HTTP-Status {{status}}",
      response_too_large: "die Antwort des Ziels war zu groß",
      rejected: "das Ziel hat die Ereignisse abgelehnt ({{detail}})",
    },
    once: "Sie erhalten diese E-Mail einmal pro Ausfall, weil Sie Inhaber von {{organization}} sind.",
  },
  apiKeyExpiry: {
    subject_one: "API-Schlüssel „{{key}}“ von {{organization}} läuft in {{count}} Tag ab",
    subject_other: "API-Schlüssel „{{key}}“ von {{organization}} läuft in {{count}} Tagen ab",
    greeting: "Hallo {{person}},",
    body: "Der API-Schlüssel „{{key}}“ ({{prefix}}…) von {{organization}} läuft am {{date}} UTC ab. Ab dann wird jeder Aufruf mit seinem Geheimnis als nicht autorisiert abgelehnt.",
    advice:
      "Damit Ihre Integrationen weiter funktionieren, stellen Sie einen neuen Schlüssel aus, setzen Sie sein Geheimnis überall dort ein, wo dieser Schlüssel verwendet wird, und widerrufen Sie dann diesen. Rotieren behält das Ablaufdatum bei.",
    action: "Schlüssel öffnen",
    linkIntro: "Öffnen Sie diesen Link, um den Schlüssel in KeyLedger zu sehen:",
    once: "Sie erhalten diese E-Mail, weil Sie Inhaber oder Administrator von {{organization}} sind: einmal 7 Tage und einmal 1 Tag, bevor ein Schlüssel abläuft.",
  },
  apiKeyLeaked: {
    subject: "API-Schlüssel „{{name}}“ von {{organization}} wurde öffentlich gefunden",
    greeting: "Hallo {{person}},",
    body: "Das Secret Scanning von GitHub hat das Geheimnis des API-Schlüssels „{{name}}“ ({{prefix}}…, {{state}}) von {{organization}} am {{when}} (UTC) gefunden: {{where}}.",
    whereUrl: "{{url}} ({{source}})",
    whereSource: "in {{source}}",
    advice:
      "Wer es gesehen hat, kann den Schlüssel benutzen, bis Sie handeln. Rotieren Sie den Schlüssel und geben Sie Ihrer Integration das neue Geheimnis, oder widerrufen Sie ihn, wenn nichts ihn benutzt.",
    notRevoked:
      "KeyLedger hat den Schlüssel nicht für Sie widerrufen: Wer einen benutzten Schlüssel widerruft, hält dessen Integration an, daher entscheiden Sie.",
    action: "Schlüssel öffnen",
    linkIntro: "Öffnen Sie diesen Link, um den Schlüssel zu rotieren oder zu widerrufen:",
    once: "Sie erhalten diese E-Mail einmal pro geleaktem Geheimnis, weil Sie Inhaber oder Administrator von {{organization}} sind.",
  },
} satisfies typeof en;

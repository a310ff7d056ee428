import type en from "~/i18n/locales/en/errors";

export default {
  unexpected: "Ein unerwarteter Fehler ist aufgetreten.",
  badRequest: "Die Anfrage ist ungültig.",
  invalidJson: "Der Inhalt der Anfrage ist kein gültiges JSON.",
  invalidInput: "Die Anfrage hat nicht die erwartete Form.",
  unauthenticated: "Bitte melden Sie sich an, um fortzufahren.",
  forbidden: "Sie haben keine Berechtigung dafür.",
  crossSite: "Websiteübergreifende Anfragen sind nicht erlaubt.",
  formUnreadable: "Das Formular konnte nicht gelesen werden: Senden Sie es erneut von der Seite aus.",
  formTooManyFields: "Das Formular hat mehr Felder als jedes Formular dieser Anwendung.",
  payloadTooLarge: "Die Anfrage ist zu groß.",
  badRequestTarget: "Die Adresse der Anfrage oder ihr Host-Header ist ungültig.",
  methodNotAllowed: "Diese Methode ist hier nicht erlaubt.",
  unsupportedMediaType: "Senden Sie den Inhalt der Anfrage als JSON (Content-Type: application/json).",
  notFound: "Nicht gefunden.",
  organizationNotFound: "Diese Organisation existiert nicht.",
  notAMember: "Sie sind kein Mitglied dieser Organisation.",
  notActiveOrganization: "Wechseln Sie zuerst zu dieser Organisation.",
  missingPermission: "Ihre Rolle erlaubt dies nicht.",
  twoFactorRequiredByOrganization: "Diese Organisation verlangt Zwei-Faktor-Authentifizierung. Aktivieren Sie sie zuerst unter Sicherheit.",
  freshSessionRequired: "Bitte melden Sie sich erneut an, um fortzufahren.",
  platformAdminRequired: "Nur Plattform-Administratoren dürfen das.",
  platformAdminTwoFactorRequired:
    "Plattform-Administratoren benötigen die Zwei-Faktor-Authentifizierung. Aktivieren Sie sie zuerst unter Sicherheit.",
  supportAccessNotOpened: "Nennen Sie zuerst einen Grund für den Einblick in das Audit-Log dieser Organisation.",
  rateLimited: "Zu viele Versuche. Versuchen Sie es in {{wait}} erneut.",
  wait: {
    seconds_one: "{{count}} Sekunde",
    seconds_other: "{{count}} Sekunden",
    minutes_one: "{{count}} Minute",
    minutes_other: "{{count}} Minuten",
  },
  invalidCredentials: "E-Mail-Adresse oder Passwort ist falsch.",
  slugTaken: "Dieses Kürzel ist bereits vergeben.",
  changedMeanwhile:
    "Etwas, worauf sich diese Änderung bezieht, wurde inzwischen entfernt (vielleicht in einem anderen Tab). Laden Sie die Seite neu und versuchen Sie es erneut.",
  field: {
    required: "Dieses Feld ist erforderlich.",
    email: "Geben Sie eine gültige E-Mail-Adresse ein.",
    tooLong: "Verwenden Sie höchstens {{max}} Zeichen.",
    tooShort: "Verwenden Sie mindestens {{min}} Zeichen.",
    passwordTooShort: "Verwenden Sie mindestens {{min}} Zeichen.",
    passwordTooLong: "Verwenden Sie höchstens {{max}} Zeichen.",
    passwordsDiffer: "Die Passwörter stimmen nicht überein.",
    slug: "Verwenden Sie Kleinbuchstaben, Ziffern und Bindestriche (3–48 Zeichen), beginnend mit Buchstabe oder Ziffer.",
    slugReserved: "Dieses Kürzel ist reserviert. Wählen Sie ein anderes.",
    role: "Wählen Sie Inhaber, Administrator oder Mitglied.",
    url: "Geben Sie eine https://-Adresse ein.",
    totpCode: "Geben Sie den 6-stelligen Code aus Ihrer Authenticator-App ein.",
    invalidChoice: "Wählen Sie eine der angebotenen Optionen.",
    invalid: "Dieser Wert ist ungültig.",
    invalidType: "Dieses Feld hat den falschen Typ.",
    unexpected: "Dieses Feld wird hier nicht erwartet.",
    controlCharacters: "Entfernen Sie Steuerzeichen wie Zeilenumbrüche, Tabulatoren oder NUL.",
    invalidCharacters: "Dieser Text enthält Zeichen, die kein gültiges Unicode sind.",
  },
  organization: {
    logoNotFound: "Dieses Logo gibt es in dieser Organisation nicht. Laden Sie es zuerst hoch.",
    enableTwoFactorFirst:
      "Aktivieren Sie zuerst die Zwei-Faktor-Authentifizierung für Ihr eigenes Konto (unter Sicherheit) und schreiben Sie sie dann für die Organisation vor.",
    confirmNameMismatch: "Geben Sie den Namen der Organisation zur Bestätigung genau so ein, wie er angezeigt wird.",
  },
  logo: {
    empty: "Wählen Sie ein Bild zum Hochladen.",
    tooLarge: "Das Bild ist zu groß. Verwenden Sie eines mit höchstens {{max}} KB.",
    unsupportedType: "Die Datei ist kein PNG-, JPEG- oder WebP-Bild.",
  },
  member: {
    notFound: "Diese Person ist kein Mitglied dieser Organisation.",
    ownerOnly: "Nur Inhaber können jemanden zum Inhaber machen oder einen Inhaber ändern oder entfernen.",
    lastOwner: "Eine Organisation braucht mindestens einen Inhaber. Machen Sie zuerst jemand anderen zum Inhaber.",
    lastOwnerCannotLeave:
      "Sie sind der einzige Inhaber. Machen Sie jemand anderen zum Inhaber, bevor Sie gehen, oder löschen Sie die Organisation.",
    cannotRemoveSelf: "Um sich selbst zu entfernen, verlassen Sie die Organisation.",
  },
  invitation: {
    notFound: "Diese Einladung gibt es in dieser Organisation nicht.",
    ownerOnly: "Nur Inhaber können jemanden als Inhaber einladen.",
    alreadyMember: "Diese Person ist bereits Mitglied der Organisation.",
    notPending: "Diese Einladung ist nicht mehr offen: Sie wurde bereits angenommen oder zurückgezogen.",
    expired: "Diese Einladung ist abgelaufen. Laden Sie die Person erneut ein, um einen neuen Link zu senden.",
    invalidToken:
      "Dieser Einladungslink ist nicht gültig. Vielleicht wurde die Einladung zurückgezogen oder durch eine neuere E-Mail ersetzt.",
    wrongAccount: "Diese Einladung wurde an eine andere E-Mail-Adresse gesendet. Melden Sie sich mit dieser Adresse an, um sie anzunehmen.",
  },
  apiKey: {
    unauthorized: "Der API-Schlüssel fehlt, ist ungültig, abgelaufen oder widerrufen.",
    missingScope: "Der API-Schlüssel hat nicht alle angeforderten Berechtigungen.",
    unknownScope: "Unbekannte Berechtigung. Erlaubt sind: organization:read, member:read, invitation:read, billing:view, audit:view.",
    scopesRequired: "Wählen Sie mindestens eine Berechtigung.",
    tooManyScopes: "Nennen Sie höchstens {{max}} Berechtigungen.",
    duplicateScopes: "Nennen Sie jede Berechtigung nur einmal.",
    invalidExpiry: "Geben Sie ein gültiges Ablaufdatum ein.",
    expiryInPast: "Das Ablaufdatum muss in der Zukunft liegen.",
    limitReached:
      "Diese Organisation hat bereits {{limit}} nicht widerrufene Schlüssel (abgelaufene zählen mit). Widerrufen Sie einen Schlüssel, bevor Sie einen neuen ausstellen.",
    nameTaken:
      "Es gibt bereits einen Schlüssel mit diesem Namen. Wählen Sie einen anderen Namen oder widerrufen Sie zuerst den anderen Schlüssel.",
    notFound: "Diesen API-Schlüssel gibt es in dieser Organisation nicht.",
    revokedCannotRotate: "Dieser Schlüssel ist widerrufen und kann nicht rotiert werden. Stellen Sie stattdessen einen neuen aus.",
    expiredCannotRotate:
      "Dieser Schlüssel ist abgelaufen und kann nicht rotiert werden. Stellen Sie einen neuen aus und widerrufen Sie diesen.",
    alreadyRevoked: "Dieser Schlüssel ist bereits widerrufen.",
    badListCursor:
      "revokedCursor ist kein Cursor, den apiKey.list geliefert hat. Fragen Sie ohne ihn erneut, um bei den zuletzt widerrufenen Schlüsseln zu beginnen.",
    badRevokedCursor:
      "Der Link zu dieser Seite widerrufener Schlüssel ist ungültig. Beginnen Sie erneut bei den zuletzt widerrufenen Schlüsseln.",
  },
  apiKeyFilters: {
    repeated: "Geben Sie jeden Filter (q, scope, state, sort) nur einmal an.",
    badScope: "Filtern Sie nach einer der Berechtigungen organization:read, member:read, invitation:read, billing:view oder audit:view.",
    badState: "Filtern Sie nach dem Zustand active, expired oder revoked.",
    badSort: "Sortieren Sie nach created oder lastUsed.",
    queryInvalid: "Suchen Sie mit einfachem Text: Steuer- und unsichtbare Zeichen können nicht Teil eines Schlüsselnamens sein.",
    queryTooLong: "Suchen Sie nach höchstens {{max}} Zeichen: einem Teil des Schlüsselnamens oder dem Anfang seines Präfixes.",
    querySecret:
      "query sieht wie ein vollständiges Geheimnis aus. Suchen Sie nach dem Präfix des Schlüssels (sk_ und 8 Zeichen) oder finden Sie den Schlüssel eines Geheimnisses mit apiKey.lookup.",
  },
  audit: {
    unsafeCorrelationId: "Die Korrelations-ID muss eine kurze, nicht geheime Kennung sein.",
    idempotencyKeyReused: "Dieser Idempotenzschlüssel wurde bereits für ein anderes Ereignis verwendet.",
  },
  keyLookup: {
    required: "Fügen Sie das Geheimnis ein, das Sie nachschlagen möchten.",
    tooLong: "Ein KeyLedger-Geheimnis hat weniger als {{max}} Zeichen, dies ist also keines. Fügen Sie nur das Geheimnis ein.",
  },
  account: {
    wrongPassword: "Das aktuelle Passwort ist falsch.",
    samePassword: "Wählen Sie ein neues Passwort, das sich vom aktuellen unterscheidet.",
    sessionNotFound: "Diese Sitzung ist bereits beendet.",
    badSessionId: "Das ist keine Sitzung aus dieser Liste.",
    confirmEmailMismatch: "Geben Sie zur Bestätigung genau die E-Mail-Adresse Ihres Kontos ein.",
    codeRequired: "Geben Sie einen Code aus Ihrer Authenticator-App oder einen Wiederherstellungscode ein.",
    passwordIncorrect: "Das Passwort ist falsch.",
    busy: "Ihre Mitgliedschaften haben sich während des Löschens geändert. Versuchen Sie es erneut.",
  },
  passwordReset: {
    invalidLink: "Dieser Link funktioniert nicht mehr. Fordern Sie einen neuen an.",
  },
  signUp: {
    inviteOnly:
      "Konten gibt es in diesem KeyLedger nur auf Einladung. Bitten Sie einen Inhaber oder Administrator einer Organisation, Sie einzuladen.",
    invitedAddressOnly: "Diese Einladung gilt für {{email}}. Registrieren Sie sich mit dieser Adresse, um sie anzunehmen.",
    domainNotAllowed:
      "Die Registrierung ist hier nur für Adressen bei {{domains}} offen. Für eine andere Adresse lassen Sie sich einladen.",
  },
  emailVerification: {
    invalidLink:
      "Dieser Link funktioniert nicht mehr. Links funktionieren einmal, 24 Stunden lang, und nur der neueste. Melden Sie sich an, um einen neuen zu senden.",
    otherAccount: "Dieser Link bestätigt die Adresse eines anderen Kontos. Melden Sie sich zuerst ab und öffnen Sie den Link dann erneut.",
    required:
      "Bestätigen Sie Ihre E-Mail-Adresse, bevor Sie eine Organisation erstellen: Öffnen Sie den Link, den wir Ihnen gesendet haben.",
  },
  emailChange: {
    invalidLink:
      "Dieser Link funktioniert nicht mehr: Er wurde schon benutzt, durch einen neueren ersetzt oder ist abgelaufen. Es wurde nichts geändert.",
    otherAccount:
      "Dieser Link gehört zu einem anderen Konto. Melden Sie sich mit dem Konto an, das die Änderung angefragt hat. Es wurde nichts geändert.",
    addressTaken: "Ein anderes Konto hat diese Adresse inzwischen, daher bleibt Ihre Adresse unverändert.",
    sameAddress: "Das ist bereits die Adresse Ihres Kontos.",
  },
  supportLog: {
    badDate: "Datumsangaben müssen echte Kalenderdaten im Format JJJJ-MM-TT sein.",
    badRange: "Das Anfangsdatum darf nicht nach dem Enddatum liegen.",
    badCursor: "Dieser Seitenlink ist ungültig. Beginnen Sie wieder bei den neuesten Einträgen.",
    badFilter: "Die Filter für Administrator und Organisation erwarten IDs.",
  },
  supportPlan: {
    choosePlan: "Wählen Sie den neuen Tarif.",
  },
  organizationSearch: {
    tooLong: "Suchen Sie nach höchstens 100 Zeichen.",
    badCursor: "Dieser Seitenlink ist ungültig. Beginnen Sie die Suche neu.",
    badText: "Suchen Sie nur nach sichtbarem Text.",
  },
  auditLog: {
    badAction: "Der Aktionsfilter ist keine gültige Aktionskennung.",
    badActor: "Der Akteursfilter ist keine gültige Akteurs-ID.",
    badDate: "Datumsangaben müssen echte Kalenderdaten im Format JJJJ-MM-TT sein.",
    dateOutOfRange: "Datumsangaben müssen zwischen 2000-01-01 und 9999-12-31 liegen.",
    badRange: "Das Anfangsdatum darf nicht nach dem Enddatum liegen.",
    badCursor: "Der Seitenlink ist ungültig oder veraltet. Beginnen Sie erneut bei den neuesten Ereignissen.",
    badEvent: "Die Ereignis-ID ist ungültig.",
    badPerPage: "Ereignisse pro Seite: erlaubt sind 25, 50 oder 100.",
    badTarget: "Der Zielfilter ist keine gültige Kennung.",
    eventNotFound: "Dieses Ereignis existiert in dieser Organisation nicht.",
  },
  /** Das Audit-Log gegen seine Digests prüfen (app/audit-integrity/verify-request.server.ts). */
  auditVerify: {
    running: "Eine Prüfung des Audit-Logs dieser Organisation läuft bereits. Versuchen Sie es in {{wait}} erneut.",
  },
  auditExport: {
    planLacksExport: "Der Tarif Ihrer Organisation enthält keinen Export des Audit-Logs.",
    billingBlocked:
      "Der Export des Audit-Logs ist ausgesetzt, solange die Abrechnung der Organisation offen ist. Klären Sie zuerst die Abrechnung.",
    badFormat: "Das Format muss csv oder json (NDJSON) sein.",
    repeatedParameter: "Der Parameter {{name}} kommt mehrfach vor. Geben Sie jeden Parameter höchstens einmal an.",
    queryTooLong: "Die Export-Adresse ist zu lang. Verwenden Sie den Download-Link auf der Seite des Audit-Logs.",
    busy: "Gerade laufen zu viele Exporte. Versuchen Sie es in {{wait}} erneut.",
  },
  /** Ziele des Audit-Logs verwalten (app/audit-streams/streams.server.ts). */
  auditStreamChange: {
    planLacksStreaming: "Der Tarif Ihrer Organisation enthält kein Streaming des Audit-Logs.",
    billingBlocked:
      "Das Streaming des Audit-Logs ist ausgesetzt, solange die Abrechnung der Organisation offen ist. Klären Sie zuerst die Abrechnung.",
    limitReached: "Eine Organisation kann höchstens {{limit}} Ziele für das Audit-Log haben. Löschen Sie zuerst eines.",
    staleVersion:
      "Jemand anderes hat dieses Ziel geändert, seit Sie es geöffnet haben. Laden Sie es neu und nehmen Sie Ihre Änderung erneut vor.",
    notFound: "Dieses Ziel gibt es in dieser Organisation nicht.",
    startDateInvalid: "Geben Sie das Datum für die erneute Zustellung als JJJJ-MM-TT ein, höchstens heute.",
    kindUnknown: "Die Art des Ziels muss webhook, splunk, datadog oder s3 sein.",
    kindFixed: "Die Art eines Ziels lässt sich nicht ändern. Legen Sie stattdessen ein neues Ziel an.",
    credentialsRequired:
      "Die Adresse des Ziels hat sich geändert: Geben Sie seine Zugangsdaten erneut ein. Gespeicherte Zugangsdaten werden nie an eine neue Adresse gesendet.",
  },
  auditStream: {
    urlInvalid: "Geben Sie die vollständige Adresse des Ziels ein, beginnend mit https://.",
    urlTooLong: "Die Adresse ist zu lang (höchstens 2.000 Zeichen).",
    urlWithCredentials: "Zugangsdaten gehören in ihr eigenes Feld, nicht in die Adresse.",
    httpsRequired: "Ziele müssen https:// verwenden.",
    privateAddress:
      "Diese Adresse führt in ein Loopback-, privates, link-lokales oder Cloud-Metadaten-Netz, an das KeyLedger nicht sendet.",
    secretInvalid:
      "Ein Signaturgeheimnis ist whsec_ gefolgt von 24 bis 64 Bytes in Base64. Lassen Sie das Feld leer, damit eines erzeugt wird.",
    tokenInvalid: "Ein HTTP-Event-Collector-Token besteht aus 1 bis 128 Buchstaben, Ziffern und Bindestrichen.",
    apiKeyInvalid: "Ein Datadog-API-Schlüssel besteht aus 32 Hexadezimalzeichen.",
    accessKeyInvalid: "Eine Zugriffsschlüssel-ID besteht aus 3 bis 128 Buchstaben und Ziffern.",
    secretKeyInvalid: "Ein geheimer Zugriffsschlüssel besteht aus 8 bis 256 sichtbaren Zeichen ohne Leerzeichen.",
    fieldInvalid: "Verwenden Sie nur Buchstaben, Ziffern und _ . : / - ohne Leerzeichen.",
    bucketInvalid: "Ein Bucket-Name besteht aus 3 bis 63 Kleinbuchstaben, Ziffern, Punkten und Bindestrichen.",
    regionInvalid: "Geben Sie eine Region wie eu-central-1 ein.",
    prefixInvalid: "Ein Präfix besteht aus Ordnernamen (Buchstaben, Ziffern, _ . -), jeder mit / am Ende, etwa audit/keyledger/.",
  },
  billing: {
    unknownPlan: "Diesen Tarif gibt es nicht. Wählen Sie Free, Team oder Enterprise.",
    notConfigured: "Die Abrechnung ist in dieser Installation nicht eingerichtet, daher lässt sich der Tarif hier nicht ändern.",
    alreadyOnPlan: "Die Organisation hat bereits den Tarif {{plan}}.",
    nothingToCancel: "Der Tarif Free hat kein Abonnement, das sich kündigen ließe.",
    alreadyCanceled: "Das Abonnement ist bereits gekündigt.",
    notCanceled: "Nur ein gekündigtes Abonnement lässt sich fortsetzen.",
    eventUnsigned: "Das Ereignis ist nicht signiert. Senden Sie es mit einem KeyLedger-Signature-Header.",
    eventBadSignature: "Die Signatur des Ereignisses ist ungültig.",
    eventExpiredSignature: "Die Signatur des Ereignisses ist zu alt oder liegt in der Zukunft. Signieren Sie jede Zustellung beim Senden.",
    eventsNotConfigured: "Anbieter-Ereignisse werden nicht angenommen: BILLING_WEBHOOK_SECRET ist nicht gesetzt.",
    eventInvalid: "Das Ereignis muss ein JSON-Objekt mit genau id, type und organizationId sein.",
    eventTypeUnknown: "Unbekannter Ereignistyp. Bekannte Typen: payment_failed, payment_recovered, refund, dispute.",
    eventIdInvalid: "Die Ereignis-ID muss aus 1 bis 128 Buchstaben, Ziffern oder . _ : - bestehen.",
    eventIdReused: "Diese Ereignis-ID wurde bereits für ein anderes Ereignis verwendet.",
    eventNoPaidPlan: "Die Organisation hat keinen bezahlten Tarif, auf den dieses Ereignis zutrifft.",
    eventCanceled: "Das Abonnement der Organisation ist gekündigt; Zahlungsereignisse gelten dafür nicht.",
  },
  twoFactor: {
    invalidCode: "Dieser Code ist ungültig. Prüfen Sie Ihre Authenticator-App und versuchen Sie es erneut.",
    notEnrolled: "Zwei-Faktor-Authentifizierung ist nicht aktiviert.",
    alreadyEnabled: "Zwei-Faktor-Authentifizierung ist bereits aktiviert.",
    noPendingEnrollment: "Starten Sie die Einrichtung neu: Der vorläufige Schlüssel ist abgelaufen.",
  },
  /** The database is down, restarting or out of connections or disk (docs/decisions/0036-database-outages-answer-503.md). */
  database: {
    unavailable: "KeyLedger erreicht seine Datenbank gerade nicht. Bitte versuchen Sie es in ein paar Sekunden erneut.",
  },
  metrics: {
    unauthorized: "Die Metriken erfordern das in METRICS_TOKEN gesetzte Token, gesendet als Authorization: Bearer <Token>.",
  },
  secretScanning: {
    notConfigured: "Secret-Scanning-Meldungen werden hier nicht angenommen: SECRET_SCANNING_PUBLIC_KEYS ist nicht gesetzt.",
    unsigned:
      "Die Meldung ist nicht signiert. Senden Sie sie mit den Headern Github-Public-Key-Identifier und Github-Public-Key-Signature.",
    unknownKey: "Die Meldung ist mit einem Schlüssel signiert, den diese Installation nicht kennt. Prüfen Sie SECRET_SCANNING_PUBLIC_KEYS.",
    badSignature: "Die Signatur der Meldung passt nicht zu ihrem Inhalt.",
    tooLarge: "Eine Meldung darf höchstens {{tokens}} Tokens und {{megabytes}} MiB enthalten. Senden Sie sie in kleineren Teilen.",
    invalid: "Die Meldung muss ein JSON-Array von Objekten mit den Zeichenketten token, type, url und source sein.",
  },
} satisfies typeof en;

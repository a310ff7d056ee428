import type en from "~/i18n/locales/en/integrators";

export default {
  title: "API-Schlüssel prüfen",
  intro:
    "Ihr Dienst erhält Anfragen mit einem KeyLedger-API-Schlüssel. Bevor Sie eine beantworten, fragen Sie KeyLedger, ob der Schlüssel gültig ist und die Berechtigungen hat, die die Anfrage braucht.",
  openApi: "OpenAPI-3.1-Dokument",
  openApiHint: "Für API-Clients und Codegeneratoren: jede Antwort, mit Beispielen.",
  keysPageLink: "Für Integrationen",
  backToKeys: "Zurück zu den API-Schlüsseln",
  toc: {
    label: "Auf dieser Seite",
    call: "Der Aufruf",
    examples: "Beispiele",
    answers: "Antworten",
    caching: "Zwischenspeichern",
    format: "Format der Schlüssel",
  },
  call: {
    heading: "Der Aufruf",
    description:
      "Senden Sie den Schlüssel, den Ihr Aufrufer vorgelegt hat, als Bearer-Token und die Berechtigungen, die Ihr Endpunkt braucht. Eine leere Liste prüft nur, wem der Schlüssel gehört.",
    request: "Anfrage",
    answer: "Antwort, wenn der Schlüssel passt (200)",
    scopes: "Berechtigungen, nach denen Sie fragen können (höchstens {{max}} pro Aufruf):",
    fields: {
      keyId: "Die ID des Schlüssels. Sie bleibt gleich, wenn der Schlüssel rotiert wird.",
      organizationId: "Die Organisation, der der Schlüssel gehört: Liefern Sie die Daten dieser Organisation, keiner anderen.",
      scopes: "Alle Berechtigungen des Schlüssels.",
    },
    envelope: "Eingabe und Antwort stehen unter „json“: der Umschlag der RPC-Schicht von KeyLedger. Sonst darf nichts gesendet werden.",
  },
  examples: {
    heading: "Beispiele zum Kopieren",
    description:
      "Jedes Beispiel liest den vorgelegten Schlüssel aus der Umgebungsvariablen API_KEY, fragt nach organization:read und gibt die Antwort aus.",
    copy: "Beispiel für {{language}} kopieren",
    languages: {
      curl: "curl",
      node: "Node.js (fetch)",
      python: "Python (urllib, Standardbibliothek)",
      go: "Go (net/http)",
    },
  },
  answers: {
    heading: "Antworten und was zu tun ist",
    description:
      "Jede Antwort ist JSON. Fehler haben einen festen Code und eine Meldung in der Sprache des Aufrufers (Accept-Language: de für Deutsch). Jede Antwort hat einen X-Request-Id-Header: Nennen Sie ihn, wenn Sie Hilfe brauchen.",
    status: "Status",
    meaning: "Bedeutung",
    action: "Was zu tun ist",
    items: {
      ok: {
        meaning: "Der Schlüssel ist aktiv und hat jede angefragte Berechtigung. Seine letzte Verwendung wird vermerkt.",
        action: "Beantworten Sie die Anfrage, nur für die Organisation in organizationId.",
      },
      badRequest: {
        meaning:
          "Der Inhalt ist kein JSON oder nicht die Eingabe: eine unbekannte Berechtigung, ein fehlendes oder unerwartetes Feld, kein „json“-Umschlag.",
        action: "Korrigieren Sie die Anfrage; data.issues nennt das fehlerhafte Feld. Erneutes Senden hilft nicht.",
      },
      unauthorized: {
        meaning: "Der Schlüssel fehlt, ist fehlerhaft, unbekannt, abgelaufen oder widerrufen: eine Antwort für alle Fälle.",
        action: "Lehnen Sie die Anfrage ab (antworten Sie Ihrem Aufrufer mit 401). Nicht wiederholen.",
      },
      forbidden: {
        meaning: "Der Schlüssel ist gültig, aber ihm fehlt mindestens eine der angefragten Berechtigungen.",
        action: "Lehnen Sie die Anfrage ab (antworten Sie mit 403). Der Inhaber kann einen Schlüssel mit dieser Berechtigung ausstellen.",
      },
      tooLarge: {
        meaning: "Der Inhalt ist größer als 64 KiB.",
        action: "Senden Sie nur die Berechtigungen: Der Inhalt ist wenige Dutzend Bytes groß.",
      },
      unsupportedMediaType: {
        meaning:
          "Der Inhalt wurde mit einem anderen Content-Type als application/json gesendet (ohne Content-Type wird er als JSON gelesen).",
        action: "Senden Sie Content-Type: application/json.",
      },
      methodNotAllowed: {
        meaning: "Eine andere Methode als POST.",
        action: "Verwenden Sie POST.",
      },
      unavailable: {
        meaning: "KeyLedger erreicht seine Datenbank nicht. Über den Schlüssel ist nichts entschieden.",
        action:
          "Versuchen Sie es nach den Sekunden in Retry-After erneut. Bis dahin gilt der Schlüssel weder als gültig noch als abgelehnt: Lehnen Sie Sensibles im Zweifel ab.",
      },
    },
  },
  caching: {
    heading: "Antworten zwischenspeichern",
    warning:
      "Wenn Sie Antworten zwischenspeichern, funktioniert ein widerrufener oder rotierter Schlüssel in Ihrem Dienst so lange weiter, wie seine Antwort in Ihrem Zwischenspeicher liegt. KeyLedger lehnt ihn sofort ab; Ihr Zwischenspeicher weiß davon nichts.",
    recommendation:
      "Der Aufruf ist eine einzige Datenbankabfrage: Für die meisten Dienste ist es schnell genug, ihn bei jeder Anfrage zu stellen. Wenn Sie zwischenspeichern:",
    points: {
      shortPositive:
        "Behalten Sie eine 200 höchstens 60 Sekunden, gezählt ab der Antwort, nie durch einen Treffer verlängert. So lange kann ein widerrufener Schlüssel höchstens weiter funktionieren.",
      cacheKey:
        "Verwenden Sie als Schlüssel des Zwischenspeichers den SHA-256 des Geheimnisses und die angefragten Berechtigungen. Speichern Sie nie das Geheimnis selbst.",
      negatives:
        "Machen Sie aus einer 401 oder 403 nie einen Erfolg. Ablehnungen dürfen Sie einige Sekunden behalten, um eine Flut falscher Schlüssel abzuwehren.",
      noErrors:
        "Speichern Sie nie eine 503 oder einen Netzwerkfehler, und verlängern Sie keine gespeicherte 200, weil KeyLedger nicht erreichbar ist.",
      sensitive: "Speichern Sie bei sensiblen Vorgängen (Änderungen, Zahlungen, Verwaltung) nichts zwischen: Fragen Sie jedes Mal.",
      local:
        "Halten Sie den Zwischenspeicher in Ihrem Prozess oder in einem Speicher, den Sie leeren können: Wenn ein Schlüssel durchsickert, leeren Sie ihn und widerrufen den Schlüssel.",
    },
  },
  format: {
    heading: "Das Format der Schlüssel, für Secret-Scanner",
    description:
      "KeyLedger-Schlüssel sind erkennbar gemacht: Ein Scanner findet einen durchgesickerten Schlüssel und unterscheidet ihn von einer zufälligen Zeichenfolge, ohne KeyLedger zu fragen.",
    current: "Heute ausgestellte Schlüssel: 76 Zeichen",
    legacy: "Von früheren Versionen ausgestellte Schlüssel: 52 Zeichen, weiterhin gültig (ohne Teil für die Organisation)",
    parts: {
      marker: "die Kennung",
      random: "43 zufällige Zeichen",
      organization: "24 Zeichen, die die Organisation benennen",
      checksum: "6 Zeichen Prüfsumme",
    },
    regexHeading: "Reguläre Ausdrücke",
    anchored: "Ein ganzer Wert (76 oder 52 Zeichen):",
    scanning: "In Text (Quelldateien, Logs, Tickets): beide Längen, für sich stehend:",
    checksumHeading: "Die Prüfsumme",
    checksumSteps: {
      take: "Nehmen Sie alles vor den letzten 6 Zeichen, „sk_“ eingeschlossen, als ASCII-Bytes.",
      crc: "Berechnen Sie deren CRC32 (IEEE 802.3: die CRC32 von zlib, gzip und PNG) als vorzeichenlose 32-Bit-Zahl.",
      base62:
        "Schreiben Sie diese Zahl zur Basis 62 mit den Ziffern 0–9, A–Z, a–z in dieser Reihenfolge, höchstwertige Ziffer zuerst, vorn mit 0 auf 6 Ziffern aufgefüllt.",
      compare: "Der Schlüssel ist wohlgeformt, wenn diese 6 Ziffern seinen letzten 6 Zeichen gleichen.",
    },
    checksumNote:
      "Eine zufällige Zeichenfolge besteht die Prüfung etwa einmal in vier Milliarden Versuchen. Nur KeyLedger kann sagen, ob ein wohlgeformter Schlüssel in Gebrauch ist.",
    gitleaksHeading: "gitleaks-Regel",
    gitleaksHint:
      "Fügen Sie sie Ihrer .gitleaks.toml hinzu (das Repository von KeyLedger enthält sie als docs/secret-scanning/gitleaks.toml):",
    copyRule: "gitleaks-Regel kopieren",
    copyPattern: "Regulären Ausdruck kopieren",
    leaked:
      "Einen durchgesickerten Schlüssel gefunden? Inhaber und Administratoren seiner Organisation sollten ihn sofort auf der Seite der API-Schlüssel rotieren oder widerrufen.",
  },
} satisfies typeof en;

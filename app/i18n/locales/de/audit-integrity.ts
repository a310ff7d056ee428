// Die Integritätsseite des Audit-Logs: ob das Log versiegelt ist, und die Prüfung gegen seine
// signierten Digests (docs/decisions/0062-audit-verification.md).
import type en from "~/i18n/locales/en/audit-integrity";

export default {
  title: "Integrität des Audit-Logs",
  description:
    "Prüfen Sie, dass das Audit-Log von {{organization}} genau das enthält, was seine signierten Digests versiegelt haben: kein Ereignis geändert, eingefügt oder gelöscht.",
  auditLogLink: "Integrität prüfen",
  backToLog: "Audit-Log",
  sealing: {
    heading: "Versiegelung",
    sealed:
      "Das Log ist versiegelt: Die Ereignisse jedes abgeschlossenen Zeitraums sind in einem Digest signiert, jeder mit dem vorigen verkettet.",
    noKey:
      "Es ist kein Signaturschlüssel eingerichtet (AUDIT_SIGNING_KEY): Es werden keine Digests geschrieben, und das Log kann nicht geprüft werden.",
    noDigest: "Für dieses Log wurde noch kein Digest geschrieben. Ereignisse werden versiegelt, sobald ihr Zeitraum abgeschlossen ist.",
    keys: "Signaturschlüssel",
    keyCurrent: "aktuell",
    keyRetired: "abgelöst",
    newest: "Neuester Digest",
    newestValue_one: "Nr. {{sequence}} ({{count, number}} Ereignis), abgeschlossen",
    newestValue_other: "Nr. {{sequence}} ({{count, number}} Ereignisse), abgeschlossen",
    digests: "Digests",
    publicKeys: "Öffentliche Schlüssel (JSON)",
  },
  form: {
    heading: "Prüfen",
    hint: "Lassen Sie beide Tage leer, um das ganze Log zu prüfen. Die Tage gelten in UTC und wählen die Digests, deren Zeitraum sie berühren.",
    from: "Von",
    to: "Bis",
    submit: "Prüfen",
    running: "Wird geprüft…",
  },
  verdict: {
    heading: "Ergebnis",
    intact: "Unverändert: Das Log stimmt mit seinen Digests überein.",
    tampered_one: "Manipuliert: {{count, number}} Befund.",
    tampered_other: "Manipuliert: {{count, number}} Befunde.",
    unsealed: "Nicht geprüft.",
    counts:
      "Geprüfte Digests: {{digests, number}} · geprüfte Ereignisse: {{events, number}} · neue, noch nicht versiegelte Ereignisse: {{pending, number}}",
    range: "Digests von {{first}} bis {{last}}.",
    more: "… und {{count, number}} weitere Befunde, hier nicht aufgeführt. Die vollständige Liste gibt npm run audit:verify.",
    reasons: {
      "no-key": "Es ist kein Signaturschlüssel eingerichtet, daher kann das Log nicht geprüft werden.",
      "no-digest": "Das Log ist noch nicht versiegelt: Es gibt keinen Digest, gegen den geprüft werden kann.",
      "no-digest-in-range": "Kein Digest deckt die gewählten Tage ab.",
    },
    openEvent: "Ereignis öffnen",
  },
  findings: {
    "event-altered":
      "Ereignis {{eventId}} ({{time}}) wurde geändert: Sein Inhalt weicht von dem ab, was Digest {{sequence}} versiegelt hat.",
    "event-inserted": "Ereignis {{eventId}} ({{time}}) wurde in den Bereich von Digest {{sequence}} eingefügt, der es nicht enthält.",
    "event-inserted-after":
      "Ereignis {{eventId}} ({{time}}) wurde nach dem neuesten Digest eingefügt: Es war vor diesem Digest festgeschrieben, oder seine Transaktion hat es nie gegeben.",
    "event-deleted":
      "Ereignis {{eventId}} ({{time}}) wurde gelöscht: Digest {{sequence}} hat es versiegelt, das Log enthält es nicht mehr.",
    "event-moved":
      "Ereignis {{eventId}} ({{time}}) wurde verschoben: Digest {{sequence}} hat es versiegelt, doch seine Transaktions-ID wurde geändert, sodass es jetzt in den Bereich von Digest {{foundIn}} fällt.",
    "event-moved-after":
      "Ereignis {{eventId}} ({{time}}) wurde verschoben: Digest {{sequence}} hat es versiegelt, doch seine Transaktions-ID wurde geändert, sodass es jetzt nach dem neuesten Digest einsortiert ist.",
    "digest-missing": "Digest {{first}} fehlt: {{events, number}} Ereignisse in seinem Bereich können nicht geprüft werden.",
    "digests-missing":
      "Die Digests {{first}} bis {{last}} fehlen: {{events, number}} Ereignisse in ihrem Bereich können nicht geprüft werden.",
    "bad-signature": "Digest {{sequence}} hat eine ungültige Signatur: Sie stimmt nicht mit Schlüssel {{keyId}} überein.",
    "unknown-key":
      "Digest {{sequence}} ist mit Schlüssel {{keyId}} signiert, der weder der aktuelle noch ein abgelöster Signaturschlüssel ist.",
    "key-replaced":
      "Digest {{sequence}} ist mit Schlüssel {{keyId}} signiert, der für frühere Digests bereits durch einen neuen Schlüssel abgelöst war: Ein abgelöster Schlüssel hat erneut signiert.",
    "chain-broken": "Digest {{sequence}} ist nicht mit Digest {{previous}} verkettet: Die Kette ist unterbrochen.",
    "digest-row-mismatch":
      "Der gespeicherte Digest Nr. {{sequence}} weicht von seinem signierten Dokument ab (Digest {{documentSequence}}; {{columns}}): Digests wurden vertauscht oder bearbeitet.",
    "digest-row-unreadable": "Der gespeicherte Digest Nr. {{sequence}} enthält kein lesbares signiertes Dokument.",
    "entries-altered":
      "Die mit Digest {{sequence}} gespeicherte Ereignisliste wurde geändert: Es ist nicht die, auf die sich der signierte Digest festlegt.",
    "sealing-overdue":
      "{{count, number}} Ereignisse seit {{time}} sind noch immer nicht versiegelt: Die neuesten Digests fehlen, oder der Digest-Job läuft nicht.",
  },
} satisfies typeof en;

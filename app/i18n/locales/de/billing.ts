import type en from "~/i18n/locales/en/billing";

export default {
  title: "Abrechnung",
  description: "Tarif und Abrechnungsstatus von {{name}}.",
  readOnly: "Nur Inhaber können den Tarif oder das Abonnement ändern. Hier sehen Sie beides.",
  notConfigured: "Die Abrechnung ist in dieser Installation nicht eingerichtet: Der Tarif lässt sich hier nicht ändern.",
  current: {
    title: "Aktueller Tarif",
    plan: "Tarif",
    state: "Abrechnungsstatus",
  },
  states: {
    active: { label: "Aktiv", explanation: "Alles, was der Tarif enthält, steht zur Verfügung." },
    past_due: {
      label: "Zahlung überfällig",
      explanation:
        "Die letzte Zahlung ist fehlgeschlagen. Vorerst bleibt alles verfügbar; schlägt auch der nächste Versuch fehl, werden bezahlte Funktionen ausgesetzt.",
    },
    past_due_blocked: {
      label: "Zahlung überfällig, ausgesetzt",
      explanation:
        "Zwei Zahlungen nacheinander sind fehlgeschlagen. Bezahlte Funktionen wie der Export des Audit-Logs sind ausgesetzt, bis eine Zahlung durchgeht.",
    },
    canceled: {
      label: "Gekündigt",
      explanation:
        "Das Abonnement ist gekündigt. Bezahlte Funktionen wie der Export des Audit-Logs sind ausgesetzt, bis ein Inhaber es fortsetzt.",
    },
  },
  plans: {
    title: "Tarife",
    description: "Was jeder Tarif enthält.",
    current: "Aktueller Tarif",
    included: "Enthalten",
    notIncluded: "Nicht enthalten",
    switchTo: "Zu {{plan}} wechseln",
    features: {
      auditExport: "Export des Audit-Logs (CSV und NDJSON)",
      auditStreaming: "Streaming des Audit-Logs an Ihr SIEM, Ihren Webhook oder Bucket",
    },
  },
  /** Each plan's card: price, who it is for, and what it includes (app/plans/catalog.ts PLAN_HIGHLIGHTS). */
  offer: {
    perMonth: "pro Monat",
    price: "{{price}} pro Monat",
    taglines: {
      free: "Zum Ausprobieren und für kleine Projekte",
      team: "Für Teams mit Integrationen im Produktivbetrieb",
      enterprise: "Für Prüfungen und Compliance: das ganze Audit-Log exportieren und streamen",
    },
    highlights: {
      apiKeys: "API-Schlüssel mit Berechtigungen, Ablauf und Rotation (25 in Gebrauch)",
      auditLog: "Audit-Log mit Filtern, Verlauf und Aktivitätsdiagramm",
      members: "Mitglieder, Rollen und Einladungen",
      twoFactor: "Zwei-Faktor-Authentifizierung, auf Wunsch für alle verpflichtend",
      communitySupport: "Community-Support",
      emailSupport: "Support per E-Mail, Antwort innerhalb eines Werktags",
      auditExport: "Export des Audit-Logs (CSV und NDJSON)",
      auditStreaming: "Streaming des Audit-Logs an Ihr SIEM, Ihren Webhook oder Bucket",
      prioritySupport: "Bevorzugter Support mit fester Ansprechperson",
    },
  },
  checkout: {
    title: "Zum Tarif {{plan}} wechseln?",
    body: "Die Organisation wechselt jetzt von {{from}} zu {{plan}}. Die Änderung wird im Audit-Log festgehalten.",
    confirm: "Tarif wechseln",
    keep: "Aktuellen Tarif behalten",
  },
  cancel: {
    title: "Abonnement",
    description: "Eine Kündigung setzt bezahlte Funktionen aus, bis ein Inhaber das Abonnement fortsetzt.",
    button: "Abonnement kündigen",
    heading: "Das Abonnement {{plan}} kündigen?",
    body: "Bezahlte Funktionen wie der Export des Audit-Logs sind ausgesetzt, bis ein Inhaber das Abonnement fortsetzt. Die Änderung wird im Audit-Log festgehalten.",
    confirm: "Abonnement kündigen",
    keep: "Abonnement behalten",
  },
  resume: {
    description: "Beim Fortsetzen verlängert sich der Tarif {{plan}}, und seine Funktionen stehen wieder zur Verfügung.",
    button: "Abonnement fortsetzen",
    heading: "Das Abonnement {{plan}} fortsetzen?",
    body: "Der Tarif {{plan}} verlängert sich jetzt, und seine Funktionen stehen wieder zur Verfügung. Die Änderung wird im Audit-Log festgehalten.",
    confirm: "Abonnement fortsetzen",
    keep: "Nicht jetzt",
  },
  done: {
    checkout: "Die Organisation hat jetzt den Tarif {{plan}}.",
    cancel: "Das Abonnement ist gekündigt.",
    resume: "Das Abonnement ist wieder aktiv.",
  },
  confirmMissing: "Diese Änderung ist nicht verfügbar. Wählen Sie sie unten erneut.",
  events: {
    applied: "Das Ereignis wurde angewendet.",
    unchanged: "Das Ereignis ist eingegangen; es hat nichts geändert.",
    already_processed: "Dieses Ereignis wurde bereits verarbeitet; nichts hat sich geändert.",
  },
} satisfies typeof en;

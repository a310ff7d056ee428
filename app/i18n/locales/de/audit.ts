import type en from "../en/audit";

export default {
  actions: {
    api_key: {
      issued: { label: "API-Schlüssel ausgestellt", description: "Ein neuer API-Schlüssel wurde ausgestellt. Sein Geheimnis wurde der ausstellenden Person einmal angezeigt." },
      rotated: { label: "API-Schlüssel rotiert", description: "Das Geheimnis des Schlüssels wurde ersetzt. Das bisherige Geheimnis funktioniert sofort nicht mehr." },
      revoked: { label: "API-Schlüssel widerrufen", description: "Der Schlüssel wurde endgültig widerrufen. Sein Geheimnis wird ab sofort abgelehnt." },
    },
    invitation: {
      sent: { label: "Einladung gesendet", description: "Jemand wurde eingeladen, der Organisation beizutreten." },
      accepted: { label: "Einladung angenommen", description: "Eine Einladung wurde angenommen; die Person ist jetzt Mitglied." },
      canceled: { label: "Einladung zurückgezogen", description: "Eine offene Einladung wurde zurückgezogen." },
    },
    member: {
      removed: { label: "Mitglied entfernt", description: "Ein Mitglied wurde aus der Organisation entfernt oder hat sie verlassen." },
      role_changed: { label: "Rolle geändert", description: "Die Rolle eines Mitglieds in der Organisation hat sich geändert." },
    },
    organization: {
      settings_changed: { label: "Organisationseinstellungen geändert", description: "Name, Kürzel, Logo oder Sicherheitseinstellungen der Organisation haben sich geändert." },
    },
    audit: {
      exported: { label: "Audit-Log exportiert", description: "Jemand hat das Audit-Log heruntergeladen. Die Datei selbst wird nicht gespeichert." },
    },
  },
  details: {
    raw: "Details",
    name: "Name",
    scopes: "Berechtigungen",
    expiresAt: "Läuft ab",
    role: "Rolle",
    userId: "Benutzer",
    reason: "Grund",
    from: "Von",
    to: "Bis",
    automatic: "Automatisch",
    slug: "Kürzel",
    logoUrl: "Logo",
    requireTwoFactor: "Zwei-Faktor-Authentifizierung verlangt",
    format: "Format",
    filters: "Filter",
    action: "Aktion",
    actorId: "Akteur",
  },
  values: {
    never: "Nie",
    none: "—",
    yes: "Ja",
    no: "Nein",
    change: "{{from}} → {{to}}",
    reason: { removed: "Von Inhaber oder Admin entfernt", left: "Hat die Organisation verlassen" },
    format: { csv: "CSV", json: "NDJSON" },
  },
  actorKinds: { user: "Benutzer", api_key: "API-Schlüssel", job: "Job", agent: "Agent", system: "System" },
  targetTypes: { api_key: "API-Schlüssel", invitation: "Einladung", user: "Mitglied", organization: "Organisation" },
  unknownAction: "Unbekannte Aktion ({{action}})",
} satisfies typeof en;

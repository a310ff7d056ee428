import type en from "~/i18n/locales/en/admin";

export default {
  nav: "Plattform-Admin",
  organizations: {
    title: "Organisationen",
    description: "Alle Organisationen dieser Installation. Das Öffnen macht Sie nicht zum Mitglied.",
    name: "Name",
    slug: "Kürzel",
    plan: "Tarif",
    members: "Mitglieder",
    created: "Erstellt",
    open: "Öffnen",
    empty: "Noch keine Organisationen.",
  },
  organization: {
    title: "Organisation",
    overview: "Überblick",
    auditLog: "Audit-Protokoll",
    auditLogDescription: "Das Audit-Protokoll der Organisation, genau so, wie ihre Inhaber und Administratoren es sehen.",
    back: "Alle Organisationen",
    requireTwoFactor: "Zwei-Faktor-Authentifizierung verlangt",
    yes: "Ja",
    no: "Nein",
  },
} satisfies typeof en;

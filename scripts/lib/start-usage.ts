// `npm start -- --help` (also `npm run serve` and `npm run dev`), kept out of scripts/start.ts.
export const START_USAGE = `Usage: npm start            build, then start (npm run serve: start an existing build)
       npm run dev          start with the development server (hot reload, no build)

Without DATABASE_URL: starts the embedded PostgreSQL (data in EMBEDDED_POSTGRES_DIR, port
EMBEDDED_POSTGRES_PORT) and loads the demo data on first start. With it: uses that database.
Either way, pending migrations are applied, then the app listens on HOST:PORT. Configuration is
read from the environment; README.md lists every variable.

  --dev         the development server (what npm run dev passes)
  -h, --help    show this help`;

# KeyLedger's image (docs/decisions/0035-runtime-and-production-build.md). Two stages: the build
# stage installs everything and runs `npm run build`; the runtime stage holds only the runtime
# dependencies and the build output, and runs `node build/node/start.js` as a non-root user.
#
#   docker build -t keyledger .
#   docker run --rm -e DATABASE_URL=postgresql://… -e APP_ORIGIN=https://keys.example.com -p 3000:3000 keyledger
#   docker run --rm -e DATABASE_URL=postgresql://… keyledger npm run db:migrate     # at deploy, before the new instances
#
# compose.yaml runs it with PostgreSQL 17 and a mail catcher.

ARG NODE_IMAGE=node:24.21.0-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY scripts/prisma-generate.mjs scripts/
COPY prisma/schema.prisma prisma/
COPY prisma.config.ts ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000
WORKDIR /app
# The deployable tree: manifests, the plain-JavaScript scripts npm calls (postinstall, the command
# launcher scripts/run.mjs), then the build (tests/production/deployable-tree.test.ts proves it).
COPY package.json package-lock.json ./
COPY scripts/*.mjs scripts/
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/build ./build
# The image's files belong to root and are read-only for the app; only mail files (without SMTP_URL)
# are written, to a directory of the app's own.
RUN mkdir -p /app/.data/outbox && chown -R node:node /app/.data
USER node
EXPOSE 3000
# /livez: the process answers (no database check; the orchestrator's readiness probe is /readyz).
# Node's fetch, because slim images have no curl.
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/livez').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
STOPSIGNAL SIGTERM
# node itself is PID 1's command (no npm, no shell in between), so SIGTERM reaches the app directly.
CMD ["node", "build/node/start.js"]

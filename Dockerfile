# Tumble as a container image: `docker build -t tumble .` (the app), `--target worker` (the jobs).
# compose.yaml runs both beside PostgreSQL; README.md, "Deployment", says how.

# ── build: every dependency, the web app's production build, then the dev tools pruned away ────────
FROM node:20.20-bookworm-slim AS build
WORKDIR /app
# The manifests first: the `npm ci` layer is reused until a dependency changes.
COPY package.json package-lock.json ./
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY packages/contracts/package.json packages/contracts/
COPY e2e/package.json e2e/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

# ── runtime: what the server runs, as the unprivileged `node` user ────────────────────────────────
FROM node:20.20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    PORT=3000 \
    DATA_DIR=/data \
    SEED_DEMO=false
WORKDIR /app
COPY --from=build --chown=node:node /app /app
# Uploaded files, kept mail and the secrets key live in DATA_DIR: a volume owned by `node`.
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000

# ── worker: `npm run worker` (mail delivery, holds and invitations expiring), no HTTP port ─────────
FROM runtime AS worker
HEALTHCHECK NONE
CMD ["node", "--max-old-space-size=1024", "--import", "tsx", "apps/server/src/worker.ts"]

# ── app (the default target): the server as `npm start` starts it ─────────────────────────────────
FROM runtime AS app
# Healthy once /api/ready answers 200: the database answers and every migration is applied.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# scripts/start.mjs's command without its build step (the web app was built above): NODE_ENV and
# the heap limit as it sets them. node runs directly (not under npm), so `docker stop`'s SIGTERM
# reaches main.ts, which finishes the requests in flight and closes the pool before it exits.
CMD ["node", "--max-old-space-size=1024", "--import", "tsx", "apps/server/src/main.ts"]

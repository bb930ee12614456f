# porchlight GitHub App. Configure with Probot's variables: APP_ID, PRIVATE_KEY (or PRIVATE_KEY_PATH),
# WEBHOOK_SECRET, PORT (default 3000), and GHE_HOST / GHE_PROTOCOL for GitHub Enterprise Server; the
# operator settings (PORCHLIGHT_*, REDIS_URL) are listed in README ("Running it in production").
# Build: docker build -t porchlight . (no daemon runs on the development machines: test/server/dockerfile.test.ts
# checks this file as text). Base: Node 24, the active LTS line.
FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY src ./src
RUN npm run build

FROM node:24-slim
# tini (Debian's package) is PID 1: it forwards SIGTERM to Node and reaps the processes exec functions leave.
RUN apt-get update \
  && apt-get install -y --no-install-recommends tini \
  && rm -rf /var/lib/apt/lists/*
# Probot listens on HOST (default "localhost", unreachable from outside the container) and PORT.
# JSON log lines by default (LOG_FORMAT=pretty for text). Shutdown: running jobs get
# PORCHLIGHT_SHUTDOWN_GRACE_MS (20 s), then in-flight renders are stopped (at most 5 s more): inside
# Kubernetes' default 30 s terminationGracePeriodSeconds (with `docker run`/`docker stop`, pass
# --stop-timeout 30 / -t 30: Docker's own default is 10 s).
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 LOG_FORMAT=json LOG_LEVEL=info \
  PORCHLIGHT_SHUTDOWN_GRACE_MS=20000
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY bin ./bin
COPY app.yml ./
# The image's `node` user, by number, so Kubernetes' runAsNonRoot can verify it is not root.
USER 1000:1000
EXPOSE 3000
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "node_modules/probot/bin/probot.js", "run", "./dist/src/index.js"]

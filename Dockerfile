# porchlight GitHub App. Configure with Probot's variables: APP_ID, PRIVATE_KEY (or PRIVATE_KEY_PATH),
# WEBHOOK_SECRET, PORT (default 3000), and GHE_HOST / GHE_PROTOCOL for GitHub Enterprise Server; the
# operator settings (PORCHLIGHT_*, REDIS_URL) are listed in README ("Running it in production").
# Base: Node 24, the active LTS line.
FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY src ./src
RUN npm run build

FROM node:24-slim
# Probot listens on HOST (default "localhost", unreachable from outside the container) and PORT.
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY bin ./bin
COPY app.yml ./
USER node
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Node itself is PID 1 (not npm), so SIGTERM reaches the app's graceful shutdown.
CMD ["node", "node_modules/probot/bin/probot.js", "run", "./dist/src/index.js"]

# porchlight GitHub App. Configure with Probot's variables: APP_ID, PRIVATE_KEY (or PRIVATE_KEY_PATH),
# WEBHOOK_SECRET, PORT (default 3000), and GHE_HOST / GHE_PROTOCOL for GitHub Enterprise Server.
# Operator switches (off by default): PORCHLIGHT_ALLOW_EXEC, PORCHLIGHT_ALLOW_CONTAINERS.
FROM node:20-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build

FROM node:20-slim
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
CMD ["npm", "start"]

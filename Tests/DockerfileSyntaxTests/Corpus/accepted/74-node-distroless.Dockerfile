# syntax=docker/dockerfile:1
# Covers: a real-world-shaped Node app: npm ci with a cache and secret mount, a build stage, a distroless runtime.
ARG NODE_VERSION=20.11.1

FROM node:${NODE_VERSION}-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm \
    --mount=type=secret,id=npmrc,target=/root/.npmrc \
    npm ci --omit=dev

FROM deps AS build
RUN --mount=type=cache,target=/root/.npm npm ci
COPY tsconfig.json ./
COPY src ./src
RUN npm run build \
 && npm prune --omit=dev

FROM gcr.io/distroless/nodejs20-debian12:nonroot
ENV NODE_ENV=production
WORKDIR /app
COPY --from=deps --chown=nonroot /app/node_modules ./node_modules
COPY --from=build --chown=nonroot /app/dist ./dist
COPY --link package.json ./
USER nonroot
EXPOSE 3000
STOPSIGNAL SIGTERM
CMD ["dist/server.js"]

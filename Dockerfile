# One image per service, holding only that service's code and production dependencies (ADR 0221):
#   docker build --build-arg SERVICE=gateway -t register/gateway .
# Release builds also pass --build-arg VERSION=<the service's version> --build-arg SOURCE_URL=<repository URL>.
ARG SERVICE

# turbo prune: the service's workspace and the workspaces it depends on, with a lock file cut to them.
FROM node:24-bookworm-slim AS prune
ARG SERVICE
WORKDIR /src
COPY . .
RUN npx --yes turbo@2.11.9 prune "@register/${SERVICE}" --docker --out-dir /out

FROM node:24-bookworm-slim AS build
ARG SERVICE
WORKDIR /app
# Manifests first: the install layer is reused while no package.json or the lock file changes.
COPY --from=prune /out/json/ ./
COPY --from=prune /out/package-lock.json ./package-lock.json
RUN npm ci --no-audit --no-fund
COPY --from=prune /out/full/ ./
COPY tsconfig.base.json ./
COPY deploy/image/production-workspaces.mjs /tmp/production-workspaces.mjs
# Build, then keep only the workspaces the service runs with (not the tests' testkit, launcher or embedded
# PostgreSQL that turbo prune keeps as devDependencies) and only their production packages.
RUN npx turbo run build --filter="@register/${SERVICE}..." \
  && node /tmp/production-workspaces.mjs . "${SERVICE}" \
  && npm prune --omit=dev --ignore-scripts --no-audit --no-fund

FROM node:24-bookworm-slim
ARG SERVICE
ARG VERSION=1.0.0
ARG SOURCE_URL=https://code.example.org/register/backend
LABEL org.opencontainers.image.title="register-${SERVICE}" \
      org.opencontainers.image.description="Register of healthcare professionals, self-service backend: the ${SERVICE} service" \
      org.opencontainers.image.source="${SOURCE_URL}" \
      org.opencontainers.image.licenses="EUPL-1.2" \
      org.opencontainers.image.version="${VERSION}"
ENV NODE_ENV=production SERVICE=${SERVICE} HOST=0.0.0.0
WORKDIR /app
COPY --from=build /app /app
COPY LICENSE /app/LICENSE
USER node
# 8080: the API and /health; 9464: Prometheus metrics (METRICS_PORT).
EXPOSE 8080 9464
# The slim image has no curl: Node's fetch asks /health (liveness; readiness is /health/ready).
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["sh", "-c", "exec node services/${SERVICE}/dist/src/main.js"]

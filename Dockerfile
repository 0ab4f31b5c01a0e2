# One image definition for every service: docker build --build-arg SERVICE=gateway -t register/gateway .
# Release builds also pass --build-arg VERSION=<version> --build-arg SOURCE_URL=<repository URL>.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json turbo.json tsconfig.base.json ./
COPY libs ./libs
COPY services ./services
COPY tools ./tools
RUN npm ci --no-audit --no-fund && npx turbo run build && npm prune --omit=dev

FROM node:24-bookworm-slim
ARG SERVICE
ARG VERSION=0.1.0
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

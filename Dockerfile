# One image definition for every service: docker build --build-arg SERVICE=gateway -t register/gateway .
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json turbo.json tsconfig.base.json ./
COPY libs ./libs
COPY services ./services
COPY tools ./tools
RUN npm ci --no-audit --no-fund && npx turbo run build && npm prune --omit=dev

FROM node:24-bookworm-slim
ARG SERVICE
ENV NODE_ENV=production SERVICE=${SERVICE} HOST=0.0.0.0
WORKDIR /app
COPY --from=build /app /app
USER node
EXPOSE 8080
CMD ["sh", "-c", "exec node services/${SERVICE}/dist/src/main.js"]

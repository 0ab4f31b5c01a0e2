#!/usr/bin/env bash
# The software bill of materials of one service's image (CycloneDX): the same tree the Dockerfile installs
# (turbo prune, then only the workspaces the service runs with), read from its lock file.
# Usage: deploy/image/sbom.sh <service> <output file>
set -euo pipefail
service=$1
# Absolute: the script works in a temporary directory below.
out="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"
root="$(cd "$(dirname "$0")/../.." && pwd)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$root" && npx turbo prune "@register/${service}" --docker --out-dir "$work/pruned" >/dev/null)
cp "$work/pruned/package-lock.json" "$work/pruned/json/package-lock.json"
cd "$work/pruned/json"
node "$root/deploy/image/production-workspaces.mjs" . "$service" >/dev/null
npm install --package-lock-only --omit=dev --ignore-scripts --no-audit --no-fund >/dev/null 2>&1
npm sbom --sbom-format cyclonedx --sbom-type application --omit dev --package-lock-only \
  -w "@register/${service}" > "$out"

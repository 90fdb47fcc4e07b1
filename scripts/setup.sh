#!/usr/bin/env bash
# Installs what Firebreak needs on a fresh machine of this kind (Node 20+ is already there):
# Debian's Chromium (browser tests), nginx-light (the split deployment's reverse proxy) and
# pg_auto_failover for PostgreSQL 15 (`pnpm start:split --pg-failover`, `pnpm drill postgres-failover`),
# the pinned pnpm, then the locked dependencies. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing+=(nginx-light)
command -v pg_autoctl >/dev/null 2>&1 || missing+=(pg-auto-failover-cli postgresql-15-auto-failover)
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

want=$(node -p "require('./package.json').packageManager.split('@')[1]")
if [ "$(pnpm --version 2>/dev/null || true)" != "$want" ]; then
  npm install -g "pnpm@$want"
fi
pnpm install --frozen-lockfile

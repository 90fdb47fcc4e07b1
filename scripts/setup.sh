#!/usr/bin/env bash
# Installs what Firebreak needs on a fresh machine of this kind (Node 20+ is already there):
# the pinned pnpm, then the locked dependencies. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

want=$(node -p "require('./package.json').packageManager.split('@')[1]")
if [ "$(pnpm --version 2>/dev/null || true)" != "$want" ]; then
  npm install -g "pnpm@$want"
fi
pnpm install --frozen-lockfile

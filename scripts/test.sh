#!/usr/bin/env bash
# `pnpm test`: lint, type-check, then every test against the machine's PostgreSQL and Redis.
# Ends with one plain summary line ("Tests: N passed, N failed, N skipped") for CI logs.
set -uo pipefail
export TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1
cd "$(dirname "$0")/.."

pnpm lint || exit 1
pnpm typecheck || exit 1
# The browser tests (tests/e2e) load the built web UI: build it from the current sources first.
pnpm --filter @firebreak/web build || exit 1
rm -f test-results/vitest.json
pnpm exec vitest run --reporter=default --reporter=json --outputFile.json=test-results/vitest.json "$@"
status=$?
node scripts/test-summary.mjs test-results/vitest.json || status=1
exit $status

#!/usr/bin/env bash
# The database's share of an incident opening, without the service: pgbench runs a stored alert's write
# and an opening's writes (as the intake commits them, the alert inserted already linked, and as it did
# before migration 0031, linking the alert by an update; and eight openings written together, as a
# transaction of requests in company writes them) at 32 connections, alternating, on a database
# of its own created from the migrations and dropped after
# (docs/decisions.md#incident-opening-in-two-round-trips). Usage: bench/floor/run.sh [admin URL]
# (default: the local PostgreSQL). Needs psql and pgbench.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
admin="${1:-postgres://postgres@127.0.0.1:5432/postgres}"
db="firebreak_floor_$$"
url="${admin%/*}/$db"
psql -q "$admin" -c "create database $db"
trap 'psql -q "$admin" -c "drop database if exists $db with (force)"' EXIT
for migration in "$here"/../../packages/db/migrations/*.sql; do
  psql -q -v ON_ERROR_STOP=1 "$url" -f "$migration" >/dev/null
done
psql -q "$url" -c "insert into routing_rules (name, priority, actions) values ('floor', 1, '{\"create_incident\": true}')"
for round in 1 2 3; do
  for script in store open open-then-link open-together; do
    tps=$(pgbench -n -M prepared -c 32 -j 2 -T 8 -f "$here/$script.sql" "$url" 2>&1 | sed -n 's/^tps = \([0-9.]*\).*/\1/p')
    if [ "$script" = open-together ]; then
      printf 'round %s  %-15s %6.0f tx/s  (%.0f openings/s)\n' "$round" "$script" "$tps" "$(awk -v t="$tps" 'BEGIN { print t * 8 }')"
    else
      printf 'round %s  %-15s %6.0f tx/s\n' "$round" "$script" "$tps"
    fi
  done
done

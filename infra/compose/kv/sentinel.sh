#!/bin/sh
# Starts one Redis Sentinel of the compose example (three of them watch the primary; two must agree
# before a failover). Run like redis-node.sh, in the official redis image, as root.
#
# The apps connect through the Sentinels (KV_SENTINEL_ADDRS) with one password for the data nodes
# and the Sentinels alike (packages/queue: sentinelPassword = KV_PASSWORD), so each Sentinel requires
# that password from clients and from the other Sentinels too.
#
# Sentinel rewrites its own configuration as it learns (replicas, other Sentinels, a new primary
# after failover), so the file is written only on the first start and kept in the data volume.
#
# Environment: KV_PASSWORD_FILE, KV_ANNOUNCE_HOST (this Sentinel's host name), KV_PRIMARY_HOST
# (the initial primary), KV_SENTINEL_MASTER (default mymaster), KV_DATA_DIR (default /data),
# KV_SENTINEL_PORT (default 26379).
set -eu

data_dir="${KV_DATA_DIR:-/data}"
conf="$data_dir/sentinel.conf"
master="${KV_SENTINEL_MASTER:-mymaster}"

if [ ! -s "$conf" ]; then
  password="$(cat "$KV_PASSWORD_FILE")"
  case "$password" in
    '' | *[!A-Za-z0-9_-]*)
      echo "sentinel: $KV_PASSWORD_FILE must hold a non-empty password of [A-Za-z0-9_-]" >&2
      exit 1 ;;
  esac
  umask 077
  {
    echo "port ${KV_SENTINEL_PORT:-26379}"
    echo "dir $data_dir"
    # Names, not addresses, in both directions (must precede `sentinel monitor` with a host name).
    echo "sentinel resolve-hostnames yes"
    echo "sentinel announce-hostnames yes"
    echo "sentinel announce-ip $KV_ANNOUNCE_HOST"
    echo "requirepass $password"
    echo "sentinel sentinel-pass $password"
    echo "sentinel monitor $master $KV_PRIMARY_HOST 6379 2"
    echo "sentinel auth-pass $master $password"
    # A failover completes in 10-30 s (docs/runbooks/store-failover.md). 5 s to declare the primary
    # down, then the election.
    echo "sentinel down-after-milliseconds $master 5000"
    echo "sentinel failover-timeout $master 30000"
    echo "sentinel parallel-syncs $master 1"
  } > "$conf"
fi

exec docker-entrypoint.sh redis-server "$conf" --sentinel

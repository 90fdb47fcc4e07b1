#!/bin/sh
# Starts one Redis data node of the compose example: the primary, or (KV_REPLICA_OF set) a replica.
# Run as the container's command in the official redis image (Debian variant), as root: it reads the
# password secret, writes the node's configuration into its data volume, and hands over to the
# image's entrypoint, which drops to the `redis` user.
#
# The configuration is written only on the first start. After a Sentinel failover, Sentinel changes
# the roles with REPLICAOF and saves them with CONFIG REWRITE into this same file; regenerating it on
# every start would put the old roles back. To change the password, remove the volumes.
#
# Environment: KV_PASSWORD_FILE (required), KV_ANNOUNCE_HOST (this node's host name, required),
# KV_REPLICA_OF (host of the primary, replicas only), KV_DATA_DIR (default /data).
set -eu

data_dir="${KV_DATA_DIR:-/data}"
conf="$data_dir/redis.conf"

if [ ! -s "$conf" ]; then
  password="$(cat "$KV_PASSWORD_FILE")"
  case "$password" in
    '' | *[!A-Za-z0-9_-]*)
      echo "redis-node: $KV_PASSWORD_FILE must hold a non-empty password of [A-Za-z0-9_-]" >&2
      exit 1 ;;
  esac
  umask 077
  {
    echo "port 6379"
    echo "dir $data_dir"
    # Durability (spec: the store keeps queued jobs across a restart): append-only file, fsync
    # once a second, on the replica too, so that a promoted replica is as durable as the primary.
    echo "appendonly yes"
    echo "appendfsync everysec"
    # Every node needs both: a replica authenticates to its primary with masterauth, and any node
    # may become primary after a failover.
    echo "requirepass $password"
    echo "masterauth $password"
    # Sentinel and clients reach nodes by name: container addresses change on re-creation.
    echo "replica-announce-ip $KV_ANNOUNCE_HOST"
    if [ -n "${KV_REPLICA_OF:-}" ]; then
      echo "replicaof $KV_REPLICA_OF 6379"
    fi
  } > "$conf"
fi

exec docker-entrypoint.sh redis-server "$conf"

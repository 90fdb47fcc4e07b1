#!/bin/sh
# Creates the secret files compose.yaml mounts, under ./secrets beside this script. Existing files
# are kept, so it is safe to run again. Passwords are random hex (no quoting or URL-escaping issues);
# the chat, AI and bootstrap-admin files start empty, which means "not set" (fill them in as needed).
#
# Compose mounts file secrets with their host permissions and the apps run as uid 1000 in their
# containers, so the files are readable by all (0644) inside a directory only you can enter (0700).
set -eu

cd "$(dirname "$0")"
umask 077
mkdir -p secrets
chmod 0700 secrets

random_hex() { od -An -tx1 -N24 /dev/urandom | tr -d ' \n'; }

create() { # name value
  if [ -e "secrets/$1" ]; then
    echo "kept    secrets/$1"
  else
    printf '%s' "$2" > "secrets/$1"
    echo "created secrets/$1"
  fi
  chmod 0644 "secrets/$1"
}

create postgres_password "$(random_hex)"
# Built from the password file as it is now, so an existing password is reused.
create database_url "postgres://firebreak:$(cat secrets/postgres_password)@postgres:5432/firebreak"
create kv_password "$(random_hex)"
create chat_bot_token ""
create chat_signing_secret ""
create ai_api_key ""
create bootstrap_admin_password ""

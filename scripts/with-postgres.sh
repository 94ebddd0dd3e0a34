#!/usr/bin/env bash
# Runs a command with TEST_POSTGRES_URL set. If it is already set, that server is used;
# otherwise a throwaway PostgreSQL cluster is created on a free port, used, and removed.
set -euo pipefail

if [ -n "${TEST_POSTGRES_URL:-}" ]; then
  exec "$@"
fi

pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$pg_bin" ] || [ ! -x "$pg_bin/initdb" ]; then
  echo "PostgreSQL server binaries are missing: run scripts/setup.sh (installs Debian's postgresql)" >&2
  exit 1
fi

cluster=$(mktemp -d /tmp/backoffice-pg.XXXXXX)
as_owner() {
  # initdb refuses to run as root, so a root caller runs the cluster as 'postgres'.
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
if [ "$(id -u)" = 0 ]; then chown postgres "$cluster"; fi

port=$(python3 "$(dirname "$0")/free-port.py")

cleanup() {
  as_owner "$pg_bin/pg_ctl" -D "$cluster/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$cluster"
}
trap cleanup EXIT

as_owner "$pg_bin/initdb" -D "$cluster/data" -U postgres --auth=trust -E UTF8 --locale=C >"$cluster/initdb.log" 2>&1 \
  || { cat "$cluster/initdb.log" >&2; exit 1; }
# Durability is pointless for a cluster that is deleted afterwards; speed is not. Benchmarks
# that measure what production gets set PG_DURABLE=1 (fsync and synchronous commit on).
durability="-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
if [ "${PG_DURABLE:-0}" = 1 ]; then durability="-c fsync=on -c synchronous_commit=on"; fi
# PG_SETTINGS: more server settings for an experiment, e.g. "-c shared_buffers=1GB".
as_owner "$pg_bin/pg_ctl" -D "$cluster/data" -l "$cluster/server.log" -w -t 60 \
  -o "-p $port -k $cluster -c listen_addresses=127.0.0.1 $durability -c max_connections=300 ${PG_SETTINGS:-}" \
  start >/dev/null

export TEST_POSTGRES_URL="postgres://postgres@127.0.0.1:$port/postgres"
echo "throwaway PostgreSQL on port $port" >&2
"$@"

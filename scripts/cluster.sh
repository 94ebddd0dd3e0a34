#!/usr/bin/env bash
# A local PostgreSQL failover cluster with two backoffice servers, for rehearsing a failover
# (docs/operations.md, "Deployment with a failover cluster"). Everything runs on loopback on
# free ports, with its data under one temporary folder:
#   etcd (Patroni's store) ─ Patroni pg1, pg2 (a primary and a synchronous standby)
#   HAProxy :DB  → the node whose Patroni answers 200 on /primary
#   backoffice api1, api2 on HAProxy :DB (api1 also runs the demo's simulated suppliers)
#   HAProxy :API → the servers whose /readyz answers 200
#
#   scripts/cluster.sh up [BINARY]   start it all (BINARY, or $BACKOFFICE_BIN, or target/release/backoffice)
#   scripts/cluster.sh status        the current primary, every node and server
#   scripts/cluster.sh kill-primary  SIGKILL the primary's postmaster, as a crash would
#   scripts/cluster.sh kill-server [1|2]  SIGKILL a backoffice server (default 2: api1 holds the simulators)
#   scripts/cluster.sh down          stop everything and remove the folder (safe to run twice)
# Needs `scripts/setup.sh cluster` (Debian's patroni, etcd-server, python3-etcd, haproxy); the
# configuration files it writes are in scripts/cluster-config.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# The running cluster's folder is found through this file, so that every command after `up`
# works from any shell; one cluster a machine at a time.
pointer=${BACKOFFICE_CLUSTER_POINTER:-/tmp/backoffice-cluster.current}
# The newest PostgreSQL Debian installed (its versions sit side by side).
pg_bin=$(find /usr/lib/postgresql -mindepth 2 -maxdepth 2 -name bin 2>/dev/null | sort -V | tail -n 1 || true)

die() { echo "cluster.sh: $*" >&2; exit 1; }

# PostgreSQL refuses to run as root, and Patroni runs it, so a root caller runs etcd and
# Patroni as 'postgres' (as scripts/with-postgres.sh does).
as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

cluster_dir() {
  [ -f "$pointer" ] || die "no cluster is up (no $pointer): run scripts/cluster.sh up"
  local dir
  dir=$(cat "$pointer")
  [ -f "$dir/ports" ] || die "the cluster folder $dir is gone: run scripts/cluster.sh down"
  echo "$dir"
}

# Waits up to $1 seconds for a command to succeed, polling every half second.
wait_for() {
  local seconds=$1; shift
  local deadline=$((SECONDS + seconds))
  until "$@" >/dev/null 2>&1; do
    [ $SECONDS -lt $deadline ] || return 1
    sleep 0.5
  done
}

http_ok() { curl -fs -o /dev/null --max-time 2 "$1"; }

# Starts a command in the background with its output in a log, recording its process id
# (the command's own: setpriv and env exec it, so signals reach it and not a wrapper).
start_bg() {
  local name=$1; shift
  "$@" >"$dir/$name.log" 2>&1 &
  echo $! >"$dir/$name.pid"
}

# The command line prefix that runs the rest as the cluster's owner, by exec.
owner_prefix=()
if [ "$(id -u)" = 0 ]; then owner_prefix=(setpriv --reuid=postgres --regid=postgres --init-groups --reset-env --); fi

# The configuration files of Patroni and HAProxy (write_patroni_config, write_haproxy_config).
# shellcheck disable=SC1091 # checked on its own, or together with `shellcheck -x`
source "$root/scripts/cluster-config.sh"

# Waits up to 120 s for server N to be ready; stops waiting as soon as it has exited
# (a wrong binary, a refused database), pointing at its log.
wait_server() {
  local number=$1 port=$2 pid deadline=$((SECONDS + 120))
  pid=$(cat "$dir/api$number.pid")
  until http_ok "http://127.0.0.1:$port/readyz"; do
    kill -0 "$pid" 2>/dev/null || die "api$number exited: see $dir/api$number.log"
    [ $SECONDS -lt $deadline ] || die "api$number is not ready after 120 s: see $dir/api$number.log"
    sleep 0.5
  done
}

start_server() {
  local number=$1 port=$2; shift 2
  # Run from the folder: relative paths a server writes land there.
  start_bg "api$number" env -C "$dir" "$bin" serve \
    --listen "127.0.0.1:$port" \
    --database "$database_url" \
    --secret-key-file "$dir/secret.key" \
    --demo --demo-orders 200 \
    --allow-private-channels --allow-private-notify \
    --trust-forwarded-for --trusted-proxies 127.0.0.1 \
    --max-connections-per-address 0 \
    --monitor-rebuild-seconds 5 \
    --channel-callback-base-url "http://127.0.0.1:$api_proxy_port" \
    "$@"
}

# Six new connections in a row through HAProxy reach the primary (it sends them in turn to
# every server it counts up, so a standby still counted would take one of them).
primary_through_proxy() {
  local _
  for _ in 1 2 3 4 5 6; do
    [ "$("$pg_bin/psql" -h 127.0.0.1 -p "$db_proxy_port" -U postgres -d postgres -tAc \
      "SELECT pg_is_in_recovery()")" = f ] || return 1
  done
}

after_up() {
  local status=$?
  [ "$status" = 0 ] || echo "cluster.sh: up failed; logs in $dir; scripts/cluster.sh down removes it" >&2
}

cmd_up() {
  if [ -z "$pg_bin" ] || [ ! -x "$pg_bin/initdb" ]; then die "PostgreSQL is missing: run scripts/setup.sh cluster"; fi
  for tool in patroni etcd haproxy curl python3; do
    command -v "$tool" >/dev/null || die "$tool is missing: run scripts/setup.sh cluster"
  done
  if [ -f "$pointer" ] && [ -d "$(cat "$pointer")" ]; then
    die "a cluster is already up in $(cat "$pointer"): run scripts/cluster.sh down first"
  fi
  local source_bin=${1:-${BACKOFFICE_BIN:-$root/target/release/backoffice}}
  [ -x "$source_bin" ] || die "no backoffice binary at $source_bin (build it, or pass its path)"

  dir=$(mktemp -d /tmp/backoffice-cluster.XXXXXX)
  # A start that fails half-way leaves its processes for the logs to be read: say how to
  # remove them.
  trap after_up EXIT
  chmod 755 "$dir"
  echo "$dir" >"$pointer"
  echo "cluster folder: $dir" >&2
  # A copy, so that rebuilding the binary meanwhile does not change the servers under us.
  bin=$dir/backoffice
  cp "$source_bin" "$bin"

  local ports
  mapfile -t ports < <(python3 "$root/scripts/free-port.py" 10)
  etcd_port=${ports[0]} etcd_peer_port=${ports[1]}
  pg1_port=${ports[2]} pg2_port=${ports[3]} rest1_port=${ports[4]} rest2_port=${ports[5]}
  db_proxy_port=${ports[6]} api_proxy_port=${ports[7]} api1_port=${ports[8]} api2_port=${ports[9]}
  database_url="postgres://postgres@127.0.0.1:$db_proxy_port/backoffice"
  declare -p etcd_port pg1_port pg2_port rest1_port rest2_port db_proxy_port api_proxy_port \
    api1_port api2_port database_url >"$dir/ports"

  mkdir -p "$dir/etcd" "$dir/pg1-log" "$dir/pg2-log"
  if [ "$(id -u)" = 0 ]; then chown postgres "$dir/etcd" "$dir/pg1-log" "$dir/pg2-log" "$dir"; fi
  start_bg etcd "${owner_prefix[@]}" etcd --name etcd1 --data-dir "$dir/etcd" \
    --listen-client-urls "http://127.0.0.1:$etcd_port" --advertise-client-urls "http://127.0.0.1:$etcd_port" \
    --listen-peer-urls "http://127.0.0.1:$etcd_peer_port" \
    --initial-advertise-peer-urls "http://127.0.0.1:$etcd_peer_port" \
    --initial-cluster "etcd1=http://127.0.0.1:$etcd_peer_port"
  wait_for 30 http_ok "http://127.0.0.1:$etcd_port/health" || die "etcd did not start: see $dir/etcd.log"

  write_patroni_config pg1 "$pg1_port" "$rest1_port"
  write_patroni_config pg2 "$pg2_port" "$rest2_port"
  if [ "$(id -u)" = 0 ]; then chown postgres "$dir"/pg?.yml; fi
  # pg1 first: it bootstraps the cluster (initdb) and becomes the primary; pg2 then copies
  # it (pg_basebackup) and follows as the synchronous standby.
  start_bg patroni1 "${owner_prefix[@]}" patroni "$dir/pg1.yml"
  wait_for 90 http_ok "http://127.0.0.1:$rest1_port/primary" || die "pg1 did not become primary: see $dir/pg1-log"
  start_bg patroni2 "${owner_prefix[@]}" patroni "$dir/pg2.yml"
  wait_for 90 http_ok "http://127.0.0.1:$rest2_port/sync" \
    || die "pg2 did not become the synchronous standby: see $dir/pg2-log"

  write_haproxy_config
  haproxy -f "$dir/haproxy.cfg" -D || die "HAProxy did not start"
  # HAProxy counts a server up until its first checks fail, so the standby may answer at
  # first: wait until what answers is the primary.
  wait_for 30 primary_through_proxy || die "no primary through HAProxy: see $dir/haproxy.cfg"
  "$pg_bin/psql" -q -h 127.0.0.1 -p "$pg1_port" -U postgres -d postgres -c "CREATE DATABASE backoffice" \
    || die "cannot create the database"

  # api1 first, alone: it runs the migrations and seeds the demo (two at once would race
  # on the seed), and starts the demo's simulated suppliers, pointing the channels at
  # them. api2 then seeds nothing new and starts no simulators, so the channels keep
  # pointing at api1's.
  start_server 1 "$api1_port"
  wait_server 1 "$api1_port"
  start_server 2 "$api2_port" --no-demo-simulators
  wait_server 2 "$api2_port"
  wait_for 30 http_ok "http://127.0.0.1:$api_proxy_port/readyz" || die "the API does not answer through HAProxy"

  echo "API=http://127.0.0.1:$api_proxy_port"
  echo "DATABASE_URL=$database_url"
  # The demo accounts as `serve --demo` seeds them (src/app/demo.rs).
  echo "ADMIN=admin/Admin123"
  echo "MERCHANT=merchant/Merchant123"
  # And the demo merchant's open-API key as api1 printed it, pointed at the proxy.
  grep -A1 "^demo open-API key" "$dir/api1.log" | sed "s#http://127.0.0.1:$api1_port#http://127.0.0.1:$api_proxy_port#" || true
}

# The node whose Patroni answers 200 on /primary, as "name port", or nothing.
primary_node() {
  if http_ok "http://127.0.0.1:$rest1_port/primary"; then echo "pg1 $pg1_port"
  elif http_ok "http://127.0.0.1:$rest2_port/primary"; then echo "pg2 $pg2_port"
  fi
}

cmd_status() {
  dir=$(cluster_dir)
  # shellcheck disable=SC1091
  source "$dir/ports"
  local primary
  primary=$(primary_node)
  if [ -n "$primary" ]; then
    echo "primary: ${primary% *} (port ${primary#* })"
  else
    echo "primary: none"
  fi
  as_owner patronictl -c "$dir/pg1.yml" list 2>/dev/null || true
  local number port
  for number in 1 2; do
    port=api${number}_port
    if http_ok "http://127.0.0.1:${!port}/readyz"; then
      echo "api$number: ready (port ${!port})"
    else
      echo "api$number: not ready (port ${!port})"
    fi
  done
  echo "API=http://127.0.0.1:$api_proxy_port"
}

cmd_kill_primary() {
  dir=$(cluster_dir)
  # shellcheck disable=SC1091
  source "$dir/ports"
  local primary node pid
  primary=$(primary_node)
  [ -n "$primary" ] || die "no primary right now"
  node=${primary% *}
  # The postmaster's process id is the first line of postmaster.pid. SIGKILL on it alone is
  # a crash: its children lose their parent and end, nothing is flushed or handed over.
  pid=$(head -n 1 "$dir/$node/postmaster.pid")
  kill -KILL "$pid"
  echo "killed the primary $node (port ${primary#* }, postmaster $pid) at $(date -u +%H:%M:%S.%N | cut -c1-12)"
}

cmd_kill_server() {
  dir=$(cluster_dir)
  local number=${1:-2}
  [ "$number" = 1 ] || [ "$number" = 2 ] || die "kill-server takes 1 or 2"
  local pid
  pid=$(cat "$dir/api$number.pid")
  kill -KILL "$pid" 2>/dev/null || die "api$number (process $pid) is not running"
  echo "killed backoffice server api$number (process $pid)"
}

# Ends the processes recorded in the given pid files that still run: SIGTERM to all of
# them at once (each may take seconds to finish its work), then SIGKILL to any left after
# 10 s.
stop_pid_files() {
  local file pids=() pid
  for file in "$@"; do
    [ -f "$file" ] || continue
    pid=$(cat "$file")
    kill -TERM "$pid" 2>/dev/null && pids+=("$pid")
  done
  for _ in $(seq 1 20); do
    local running=0
    for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && running=1; done
    [ "$running" = 0 ] && return 0
    sleep 0.5
  done
  for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
}

cmd_down() {
  if [ ! -f "$pointer" ]; then
    echo "no cluster is up"
    return 0
  fi
  dir=$(cat "$pointer")
  if [ -d "$dir" ]; then
    stop_pid_files "$dir/api1.pid" "$dir/api2.pid"
    stop_pid_files "$dir/haproxy.pid"
    # Patroni stops its PostgreSQL on SIGTERM; a postmaster left over (Patroni killed
    # before it could) is stopped by its own pid file.
    stop_pid_files "$dir/patroni1.pid" "$dir/patroni2.pid"
    local node
    for node in pg1 pg2; do
      if [ -f "$dir/$node/postmaster.pid" ]; then
        as_owner "$pg_bin/pg_ctl" -D "$dir/$node" -m immediate stop >/dev/null 2>&1 || true
      fi
    done
    stop_pid_files "$dir/etcd.pid"
    rm -rf "$dir"
  fi
  rm -f "$pointer"
  echo "removed $dir"
}

case "${1:-}" in
  up) shift; cmd_up "$@" ;;
  status) cmd_status ;;
  kill-primary) cmd_kill_primary ;;
  kill-server) shift; cmd_kill_server "$@" ;;
  down) cmd_down ;;
  *) die "usage: scripts/cluster.sh up [BINARY]|status|kill-primary|kill-server [1|2]|down" ;;
esac

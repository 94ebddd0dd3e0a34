#!/usr/bin/env bash
# End-to-end channel benchmark (issue 11): orders placed -> routed -> submitted over HTTP to a
# supplier simulator -> its callback -> settled, per second, and p50/p99 from placement to
# settlement. Starts `backoffice supplier-sim` (every order succeeds at once, callbacks
# immediate) and the release server (one http-json channel at the simulator, the sandbox
# disabled, --allow-private-channels), then bench/channels_bench.rs places COUNT orders with
# CONCURRENCY clients, waits until the database shows every one settled, prints the figures
# and checks the books (each order topped up exactly once, the simulator's statement equals
# our successes, the account log sums to the balance). SQLite first, then a throwaway
# PostgreSQL cluster run durably (fsync and synchronous commit on).
#   bench/channels.sh                                  both engines, 10,000 orders, 64 clients
#   ENGINES=sqlite COUNT=20000 CONCURRENCY=32 bench/channels.sh
#   BACKOFFICE_BIN=/tmp/backoffice-before bench/channels.sh     a given server binary
#   SERVE_FLAGS="--worker-poll-ms 100" bench/channels.sh        extra server flags
#   SKIP_BUILD=1 bench/channels.sh               the binaries already built (no cargo)
# The demo merchant's funds (200,000 yuan) cover about 20,000 orders per engine.
# Figures are printed and written to bench/results/channels-<engine>.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
COUNT=${COUNT:-10000}
CONCURRENCY=${CONCURRENCY:-64}
ENGINES=${ENGINES:-"sqlite postgres"}
ENGINES=${ENGINES//,/ }
if [ "${SKIP_BUILD:-0}" = 1 ]; then
  :
elif [ -z "${BACKOFFICE_BIN:-}" ]; then
  cargo build --release --locked --bin backoffice --example channels_bench
else
  cargo build --release --locked --example channels_bench
fi
bin=${BACKOFFICE_BIN:-target/release/backoffice}
mkdir -p bench/results
work=$(mktemp -d /tmp/backoffice-channels.XXXXXX)
server=""
simulator=""
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; [ -n "$simulator" ] && kill "$simulator" 2>/dev/null; rm -rf "$work"' EXIT
free_port() {
  python3 scripts/free-port.py
}
secret="bench-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"

. bench/lib.sh

run_engine() {
  local engine=$1 url=$2 out="bench/results/channels-$1.txt"
  local port sim_port
  port=$(free_port)
  sim_port=$(free_port)
  "$bin" supplier-sim --listen "127.0.0.1:$sim_port" --secret "$secret" --success-ratio 1 \
    --balance-fen 100000000000 >"$work/simulator-$engine.log" 2>&1 &
  simulator=$!
  # shellcheck disable=SC2086 # SERVE_FLAGS is a list of flags
  "$bin" serve --listen "127.0.0.1:$port" --database "$url" --demo --demo-orders 0 --no-demo-simulators \
    --allow-private-channels --secret-key-file "$work/secret-$engine.key" ${SERVE_FLAGS:-} \
    >"$work/server-$engine.log" 2>&1 &
  server=$!
  # The statement wants a signed request: any answer says the simulator is up.
  wait_for "http://127.0.0.1:$sim_port/statement?date=2000-01-01" any
  wait_for "http://127.0.0.1:$port/readyz"
  local load_before status=0
  load_before=$(cut -d' ' -f1-3 /proc/loadavg)
  {
    echo "channels on $engine, $(date -u +%FT%TZ), load average before $load_before"
    target/release/examples/channels_bench "http://127.0.0.1:$port" "$url" "http://127.0.0.1:$sim_port" \
      "$secret" "$COUNT" "$CONCURRENCY" || status=$?
    echo "load average after $(cut -d' ' -f1-3 /proc/loadavg)"
  } | tee "$out"
  kill "$server" "$simulator"
  wait "$server" "$simulator" || true
  server=""
  simulator=""
  if [ "$status" != 0 ]; then
    echo "== $engine: checks failed; server log:" >&2
    tail -n 50 "$work/server-$engine.log" >&2
    exit 1
  fi
}

for engine in $ENGINES; do
  case $engine in
    sqlite) run_engine sqlite "sqlite://$work/channels.db" ;;
    postgres)
      if [ -n "${TEST_POSTGRES_URL:-}" ]; then
        psql "$TEST_POSTGRES_URL" -qc "DROP DATABASE IF EXISTS channels" -c "CREATE DATABASE channels" >/dev/null
        run_engine postgres "${TEST_POSTGRES_URL%/*}/channels"
      else
        ENGINES=postgres SKIP_BUILD=1 PG_DURABLE=1 scripts/with-postgres.sh bench/channels.sh
      fi
      ;;
  esac
done

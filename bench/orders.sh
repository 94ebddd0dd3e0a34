#!/usr/bin/env bash
# Server benchmark for orders: builds release, generates 1,000,000 orders for the demo
# merchant, serves them, and drives the server over HTTP with one client
# (bench/orders_bench.rs). Runs on SQLite, then on a throwaway PostgreSQL cluster.
#   bench/orders.sh            both engines
#   ENGINES=sqlite bench/orders.sh
#   BACKOFFICE_BIN=/tmp/backoffice-before bench/orders.sh   a given server binary (compare before/after)
# Figures are printed and written to bench/results/orders-<engine>.txt. Issue 13 reads its
# targets as ratios to the static index page measured in the same run (bench/lib.sh): a
# reference server's page is measured right before and right after the figures, and
# bench/orders_targets.py checks each target both as written and at the issue's machine's scale.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v wrk >/dev/null || scripts/setup.sh bench
. bench/lib.sh
COUNT=${COUNT:-1000000}
ENGINES=${ENGINES:-"sqlite postgres"}
cargo build --release --bin backoffice --example orders_bench
bin=${BACKOFFICE_BIN:-target/release/backoffice}
mkdir -p bench/results
work=$(mktemp -d /tmp/backoffice-bench.XXXXXX)
reference_pid=""
trap '[ -n "$reference_pid" ] && kill "$reference_pid" 2>/dev/null; rm -rf "$work"' EXIT
start_reference "$bin" "$work"
port=$(python3 scripts/free-port.py)

run_engine() {
  local engine=$1 url=$2
  echo "== $engine: generating $COUNT orders" >&2
  "$bin" generate-orders --merchant 10001 --count "$COUNT" --database "$url" \
    --secret-key-file "$work/secret.key" | tee "bench/results/orders-$engine.txt"
  settle_database "$url"
  # The worker is off so that only the benchmark's own requests load the server.
  "$bin" serve --listen "127.0.0.1:$port" --database "$url" --demo --demo-orders 0 \
    --secret-key-file "$work/secret.key" --no-worker >"$work/server-$engine.log" 2>&1 &
  local server=$!
  wait_for "http://127.0.0.1:$port/web/"
  local static_before static_after
  static_before=$(reference_rate)
  FIGURES="$work/figures-$engine.json" target/release/examples/orders_bench "http://127.0.0.1:$port" "$url" "$server" \
    | tee -a "bench/results/orders-$engine.txt"
  static_after=$(reference_rate)
  kill "$server"
  wait "$server" || true
  python3 bench/orders_targets.py "$engine" "$work/figures-$engine.json" "$static_before" "$static_after" "$COUNT" \
    | tee -a "bench/results/orders-$engine.txt"
}

for engine in $ENGINES; do
  case $engine in
    sqlite) run_engine sqlite "sqlite://$work/bench.db" ;;
    postgres)
      if [ -n "${TEST_POSTGRES_URL:-}" ]; then
        psql "$TEST_POSTGRES_URL" -qc "DROP DATABASE IF EXISTS bench" -c "CREATE DATABASE bench" >/dev/null
        run_engine postgres "${TEST_POSTGRES_URL%/*}/bench"
      else
        # A throwaway cluster for the run (scripts/with-postgres.sh), then this script again inside it,
        # durable as in production (fsync and synchronous commit on): issue 13's targets name it.
        ENGINES=postgres PG_DURABLE=1 scripts/with-postgres.sh bench/orders.sh
      fi
      ;;
  esac
done

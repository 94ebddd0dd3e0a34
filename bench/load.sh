#!/usr/bin/env bash
# Load benchmark (issue 13): many clients at once. Builds release, generates COUNT orders
# (default 1,000,000) for the demo merchant, serves them (order worker off, so only the
# load's own requests run), and drives each call with wrk (CONNECTIONS connections, default
# 64, over 2 threads, for DURATION, default 10s). Each call's rate is printed with its p50/p99
# and its ratio to the static index page measured in the same run, so that a noisy machine
# moves both sides alike. SQLite first, then a throwaway PostgreSQL cluster run durably
# (fsync and synchronous commit on).
#   bench/load.sh                    both engines
#   ENGINES=sqlite COUNT=100000 bench/load.sh
#   BACKOFFICE_BIN=/tmp/backoffice-before bench/load.sh     a given server binary
# Figures are printed and written to bench/results/load-<engine>.txt, with issue 13's targets
# checked as written and at the scale of the machine it was written on (bench/load_targets.py,
# against a reference server's static page: bench/lib.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
COUNT=${COUNT:-1000000}
ENGINES=${ENGINES:-"sqlite postgres"}
CONNECTIONS=${CONNECTIONS:-64}
DURATION=${DURATION:-10s}
command -v wrk >/dev/null || scripts/setup.sh bench
if [ -z "${BACKOFFICE_BIN:-}" ]; then cargo build --release --locked --bin backoffice; fi
bin=${BACKOFFICE_BIN:-target/release/backoffice}
mkdir -p bench/results
work=$(mktemp -d /tmp/backoffice-load.XXXXXX)
server=""
reference_pid=""
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; [ -n "$reference_pid" ] && kill "$reference_pid" 2>/dev/null; rm -rf "$work"' EXIT
. bench/lib.sh
start_reference "$bin" "$work"
port=$(python3 scripts/free-port.py)
base="http://127.0.0.1:$port"

# measure NAME CONNECTIONS METHOD PATH [BODY]: one wrk run; prints "NAME rate p50 p99 errors".
measure() {
  echo "$1 $(wrk_call "$base$4" "$2" "$3" "${5:-}" "$token")"
}

run_engine() {
  local engine=$1 url=$2 out="bench/results/load-$1.txt"
  echo "== $engine: generating $COUNT orders" >&2
  "$bin" generate-orders --merchant 10001 --count "$COUNT" --database "$url" \
    --secret-key-file "$work/secret.key" >&2
  settle_database "$url"
  "$bin" serve --listen "127.0.0.1:$port" --database "$url" --demo --demo-orders 0 \
    --secret-key-file "$work/secret.key" --no-worker >"$work/server-$engine.log" 2>&1 &
  server=$!
  wait_for "$base/web/"
  token=$(login_token "$base")
  repeats_allowed "$base"
  local results="$work/results-$engine" reference_before reference_after
  reference_before=$(reference_rate)
  {
    measure "GET /web/ (static)" "$CONNECTIONS" GET /web/
    measure "POST userInfo" "$CONNECTIONS" POST /adminapi/merchant/userInfo '{}'
    # As a browser calls (and many HTTP clients): asking for a compressed answer.
    ACCEPT_ENCODING="br, gzip" measure "POST userInfo, asking br/gzip" "$CONNECTIONS" POST \
      /adminapi/merchant/userInfo '{}'
    measure "POST order/list first page + total" "$CONNECTIONS" POST /adminapi/order/list '{"page_size":20}'
    ACCEPT_ENCODING="br, gzip" measure "POST order/list + total, asking br/gzip" "$CONNECTIONS" POST \
      /adminapi/order/list '{"page_size":20}'
    measure "POST order/list first page, 1 client" 1 POST /adminapi/order/list '{"page_size":20}'
    measure "GET /web/ (static), 1 client" 1 GET /web/
    measure "POST order/list today, status 2" "$CONNECTIONS" POST /adminapi/order/list \
      '{"page_size":20,"order_type":"today","status":2}'
    measure "POST order/add, $CONNECTIONS clients" "$CONNECTIONS" POST /adminapi/order/add \
      '{"account":"13800138000","product_key":"MOBILE-DIRECT-10"}'
    measure "POST order/add, 1 client" 1 POST /adminapi/order/add \
      '{"account":"13800138000","product_key":"MOBILE-DIRECT-10"}'
  } >"$results"
  reference_after=$(reference_rate)
  kill "$server"
  wait "$server" || true
  server=""
  {
    echo "load on $engine, $COUNT orders, $CONNECTIONS connections, $DURATION per call, $(date -u +%FT%TZ), load average $(cut -d' ' -f1-3 /proc/loadavg)"
    python3 bench/load_targets.py "$engine" "$results" "$reference_before" "$reference_after"
  } | tee "$out"
}

for engine in $ENGINES; do
  case $engine in
    sqlite) run_engine sqlite "sqlite://$work/load.db" ;;
    postgres)
      if [ -n "${TEST_POSTGRES_URL:-}" ]; then
        psql "$TEST_POSTGRES_URL" -qc "DROP DATABASE IF EXISTS load" -c "CREATE DATABASE load" >/dev/null
        run_engine postgres "${TEST_POSTGRES_URL%/*}/load"
      else
        ENGINES=postgres PG_DURABLE=1 scripts/with-postgres.sh bench/load.sh
      fi
      ;;
  esac
done

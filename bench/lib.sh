# Sourced by the bench scripts: waiting for a server, wrk runs, and the machine's reference.
#
# Issue 13 reads its targets as ratios to the static index page served on SQLite (46,900
# requests/s, wrk with 2 threads and 64 connections for 10 s, on the machine it was written
# on; bench/issue_scale.py), so that a slower or busier machine moves a figure and its
# yardstick alike. The engine under test cannot give that yardstick: on PostgreSQL the server runs one async worker
# (`src/platform/runtime.rs`) and serves the static page 25-35 % slower than the same binary on
# SQLite, which would flatter every PostgreSQL figure read against it. So a script starts a
# reference server (`start_reference`): the same binary on an empty SQLite database with
# the demo accounts and its default workers, measured while the server under test is idle.

# wait_for URL [any]: polls until URL answers with a success, or with `any` answer at all
# (a URL that wants a signature: the process is up), at most 30 s.
wait_for() {
  for _ in $(seq 1 150); do
    if [ "${2:-}" = any ]; then
      [ "$(curl -s -o /dev/null -w '%{http_code}' "$1")" != 000 ] && return 0
    else
      curl -sf -o /dev/null "$1" && return 0
    fi
    sleep 0.2
  done
  echo "no answer from $1" >&2
  return 1
}

# login_token BASE: signs the demo merchant in at BASE (http://host:port) and prints its token.
login_token() {
  curl -sf -X POST "$1/adminapi/login/login" -H 'Content-Type: application/json' \
    -d '{"username":"merchant","password":"Merchant123"}' \
    | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["token"])'
}

# repeats_allowed BASE: lets the demo merchant at BASE keep several orders in flight for one
# number (the calls below place every order for 13800138000, and the worker is off, so all
# stay pending). A binary without risk controls answers 404: nothing to switch off there.
repeats_allowed() {
  local admin
  admin=$(curl -sf -X POST "$1/adminapi/login/login" -H 'Content-Type: application/json' \
    -d '{"username":"admin","password":"Admin123"}' \
    | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["token"])')
  curl -s -o /dev/null -X POST "$1/adminapi/admin/merchant/risk/save" -H 'Content-Type: application/json' \
    -H "Authorization: Bearer $admin" \
    -d '{"merchant_id":10001,"single_flight":false,"number_daily_orders":0,"number_daily_fen":0,"daily_cap_fen":0}' || true
}

# wrk_call URL CONNECTIONS METHOD [BODY] [TOKEN]: drives URL with wrk (2 threads, 1 for one
# connection) for DURATION (default 10s) and prints "requests/s p50_ms p99_ms errors".
wrk_call() {
  local url=$1 connections=$2 method=$3 body=${4:-} token=${5:-} threads=2
  [ "$connections" -lt 2 ] && threads=1
  local line
  line=$(METHOD=$method BODY=$body TOKEN=$token wrk -t"$threads" -c"$connections" -d"${DURATION:-10s}" \
    -s "$(dirname "${BASH_SOURCE[0]}")/load/call.lua" "$url" | grep '^RESULT')
  # RESULT requests seconds p50_ms p99_ms errors
  local requests seconds p50 p99 errors
  read -r _ requests seconds p50 p99 errors <<<"$line"
  python3 -c "print(round($requests / $seconds), $p50, $p99, $errors)"
}

# settle_database URL: after `generate-orders` (which vacuums and analyses what it loaded),
# PostgreSQL writes the load out now rather than in a checkpoint during the figures.
# SQLite: nothing to do.
settle_database() {
  case $1 in
    postgres*) psql "$1" -qc CHECKPOINT ;;
  esac
}

# start_reference BIN WORKDIR: serves BIN on a fresh SQLite database in WORKDIR (demo
# accounts, no orders, worker off) on a free port; sets reference_pid and reference_url.
start_reference() {
  local port
  port=$(python3 scripts/free-port.py)
  reference_url="http://127.0.0.1:$port/web/"
  "$1" serve --listen "127.0.0.1:$port" --database "sqlite://$2/reference.db" --demo --demo-orders 0 \
    --secret-key-file "$2/reference.key" --no-worker >"$2/reference.log" 2>&1 &
  reference_pid=$!
  wait_for "$reference_url" || { cat "$2/reference.log" >&2; return 1; }
}

# reference_rate: the reference server's static page, requests/s, 64 connections.
reference_rate() {
  local figures
  figures=$(wrk_call "$reference_url" 64 GET)
  echo "${figures%% *}"
}

#!/usr/bin/env bash
# Side-by-side comparison of server binaries under load (issue 13). This machine runs in
# spells of a few seconds, so two builds measured one after the other can differ by more
# than the change between them. Here every binary serves its own copy of one generated data
# set at the same time, and wrk drives them in turn in short rounds: the static page, then
# the call. A spell then falls on every binary alike; the ratio to the static page of the
# same round cancels what is left.
#   bench/compare.sh /tmp/backoffice-before target/release/backoffice
#   ENGINE=postgres CALL=add CONNECTIONS=1 ROUNDS=6 bench/compare.sh A B
# ENGINE: sqlite (default) or postgres (a throwaway durable cluster unless TEST_POSTGRES_URL
# is set); CALL: add (default), list, userinfo; COUNT orders (default 1,000,000), generated
# by the first binary; CONNECTIONS (default 64); ROUNDS (default 4); DURATION a round and
# call (default 5s, in seconds). Each call's CPU time is printed too (median µs per call, of
# the server and of the whole machine, database included): steadier than rates here.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { sed -n 2,14p "$0" >&2; exit 2; }
ENGINE=${ENGINE:-sqlite}
if [ "$ENGINE" = postgres ] && [ -z "${TEST_POSTGRES_URL:-}" ]; then
  exec env PG_DURABLE=1 scripts/with-postgres.sh "$0" "$@"
fi
COUNT=${COUNT:-1000000}
CALL=${CALL:-add}
CONNECTIONS=${CONNECTIONS:-64}
ROUNDS=${ROUNDS:-4}
DURATION=${DURATION:-5s}
command -v wrk >/dev/null || scripts/setup.sh bench
. bench/lib.sh
case $CALL in
  add) call=(POST /adminapi/order/add '{"account":"13800138000","product_key":"MOBILE-DIRECT-10"}') ;;
  list) call=(POST /adminapi/order/list '{"page_size":20}') ;;
  userinfo) call=(POST /adminapi/merchant/userInfo '{}') ;;
  *) echo "CALL is add, list or userinfo" >&2; exit 2 ;;
esac
work=$(mktemp -d /tmp/backoffice-compare.XXXXXX)
servers=()
export PGOPTIONS="-c client_min_messages=warning"
cleanup() {
  for pid in "${servers[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  if [ "$ENGINE" = postgres ]; then
    for index in template $(seq 1 $#); do
      psql "$TEST_POSTGRES_URL" -qc "DROP DATABASE IF EXISTS compare_$index" >/dev/null 2>&1 || true
    done
  fi
  rm -rf "$work"
}
trap 'cleanup "$@"' EXIT
free_port() { python3 scripts/free-port.py; }

# The data set, once; then a database of its own for each binary.
case $ENGINE in
  sqlite) template="sqlite://$work/template.db" ;;
  postgres)
    psql "$TEST_POSTGRES_URL" -qc "DROP DATABASE IF EXISTS compare_template" -c "CREATE DATABASE compare_template" >/dev/null
    template="${TEST_POSTGRES_URL%/*}/compare_template"
    ;;
esac
echo "generating $COUNT orders" >&2
"$1" generate-orders --merchant 10001 --count "$COUNT" --database "$template" --secret-key-file "$work/secret.key" >&2
ports=() tokens=() names=()
for index in $(seq 1 $#); do
  bin=${!index}
  case $ENGINE in
    sqlite)
      cp "$work/template.db" "$work/server-$index.db"
      url="sqlite://$work/server-$index.db"
      ;;
    postgres)
      psql "$TEST_POSTGRES_URL" -qc "DROP DATABASE IF EXISTS compare_$index" \
        -c "CREATE DATABASE compare_$index TEMPLATE compare_template" >/dev/null
      url="${TEST_POSTGRES_URL%/*}/compare_$index"
      ;;
  esac
  port=$(free_port)
  "$bin" serve --listen "127.0.0.1:$port" --database "$url" --demo --demo-orders 0 \
    --secret-key-file "$work/secret.key" --no-worker >"$work/server-$index.log" 2>&1 &
  servers+=($!) ports+=("$port") names+=("$index:$(basename "$bin")")
done
for index in "${!ports[@]}"; do
  base="http://127.0.0.1:${ports[$index]}"
  wait_for "$base/web/"
  tokens+=("$(login_token "$base")")
  repeats_allowed "$base"
done

# CPU time so far in clock ticks: a process's (user + system), and the machine's busy time.
# A call's CPU cost varies far less with this machine's spells than its rate does.
process_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
machine_ticks() { awk '/^cpu /{print $2 + $3 + $4 + $7 + $8}' /proc/stat; }
tick_us=$((1000000 / $(getconf CLK_TCK)))
seconds=${DURATION%s}
# wrk once (bench/lib.sh): "requests/s p50_ms p99_ms errors".
drive() { wrk_call "$2" "$CONNECTIONS" "$1" "${3:-}" "${4:-}"; }
echo "$ENGINE, $COUNT orders, $CALL at $CONNECTIONS connections, $ROUNDS rounds of $DURATION, $(date -u +%FT%TZ), load average $(cut -d' ' -f1-3 /proc/loadavg)"
results="$work/results"
for round in $(seq 1 "$ROUNDS"); do
  for index in "${!ports[@]}"; do
    base="http://127.0.0.1:${ports[$index]}"
    static=$(drive GET "$base/web/")
    server_before=$(process_ticks "${servers[$index]}") machine_before=$(machine_ticks)
    measured=$(drive "${call[0]}" "$base${call[1]}" "${call[2]}" "${tokens[$index]}")
    server_after=$(process_ticks "${servers[$index]}") machine_after=$(machine_ticks)
    # CPU time per call (µs): the server's own, and the machine's (with the database's).
    cpu=$(python3 -c "r=${measured%% *}*$seconds; print(round(($server_after-$server_before)*$tick_us/r,1), round(($machine_after-$machine_before)*$tick_us/r,1))")
    echo "$round ${names[$index]} $static $measured $cpu" | tee -a "$results" | awk \
      '{printf "round %s %-28s static %7.0f/s  %s %7.0f/s p50 %s p99 %s ms errors %s cpu µs/call server %s machine %s\n", $1, $2, $3, "'"$CALL"'", $7, $8, $9, $10, $11, $12}'
  done
done
python3 - "$results" <<'PY'
import statistics, sys
by = {}
for line in open(sys.argv[1]):
    f = line.split()
    by.setdefault(f[1], []).append((float(f[2]), float(f[6]), float(f[10]), float(f[11])))
print(f"{'binary':30} {'mean rate':>10} {'median':>8} {'mean vs static':>15} {'server µs':>10} {'machine µs':>11}")
for name, runs in by.items():
    rates = [run[1] for run in runs]
    print(f"{name:30} {statistics.mean(rates):>10,.0f} {statistics.median(rates):>8,.0f} "
          f"{statistics.mean(run[1] / run[0] for run in runs):>15.4f} "
          f"{statistics.median(run[2] for run in runs):>10.1f} {statistics.median(run[3] for run in runs):>11.1f}")
PY

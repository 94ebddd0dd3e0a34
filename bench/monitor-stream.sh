#!/usr/bin/env bash
# The live monitor stream's CPU cost: generates 1,000,000 orders (SQLite), serves them, and
# measures the server process's CPU time (utime + stime from /proc) over SECONDS seconds
# with no stream open, then with one stream, then with ten. Also how long the start-up
# rebuild of the live figures takes (server start to /readyz answering).
#   bench/monitor-stream.sh
#   COUNT=100000 SECONDS_EACH=20 bench/monitor-stream.sh   a quicker look
#   SERVE_FLAGS=--no-worker bench/monitor-stream.sh          without the order worker's own polling
# Figures are printed and written to bench/results/monitor-stream.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
COUNT=${COUNT:-1000000}
SECONDS_EACH=${SECONDS_EACH:-60}
bin=${BACKOFFICE_BIN:-target/release/backoffice}
[ -x "$bin" ] || cargo build --release --locked --bin backoffice
mkdir -p bench/results
work=$(mktemp -d /tmp/backoffice-monitor.XXXXXX)
server=""
streams=()
cleanup() {
  for pid in "${streams[@]}"; do kill "$pid" 2>/dev/null || true; done
  [ -n "$server" ] && kill "$server" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
port=$(python3 scripts/free-port.py)
url="sqlite://$work/bench.db"
base="http://127.0.0.1:$port"
out=bench/results/monitor-stream.txt

echo "== generating $COUNT orders; server flags: ${SERVE_FLAGS:-none}" | tee "$out" >&2
"$bin" generate-orders --merchant 10001 --count "$COUNT" --database "$url" --secret-key-file "$work/secret.key" | tee -a "$out"
started=$(date +%s%N)
"$bin" serve --listen "127.0.0.1:$port" --database "$url" --demo --demo-orders 0 \
  --secret-key-file "$work/secret.key" ${SERVE_FLAGS:-} >"$work/server.log" 2>&1 &
server=$!
until curl -sf -o /dev/null "$base/readyz"; do sleep 0.1; done
ready=$(( ($(date +%s%N) - started) / 1000000 ))
echo "start-up to ready (migrations, key, live figures rebuilt): ${ready} ms" | tee -a "$out"
token=$(curl -sf "$base/adminapi/login/login" -H 'content-type: application/json' \
  -d '{"username":"admin","password":"Admin123"}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["token"])')
ticks=$(getconf CLK_TCK)

cpu_ticks() { awk '{print $14 + $15}' "/proc/$server/stat"; }
measure() {
  local label=$1 before after
  sleep 2 # let a new stream's first second pass before counting
  before=$(cpu_ticks)
  sleep "$SECONDS_EACH"
  after=$(cpu_ticks)
  python3 -c "
used = ($after - $before) / $ticks
print(f'$label: {used:.2f} s CPU in $SECONDS_EACH s = {100 * used / $SECONDS_EACH:.2f} % of one core')" | tee -a "$out"
}
open_streams() {
  for _ in $(seq 1 "$1"); do
    curl -sN "$base/adminapi/monitor/stream" -H "Authorization: Bearer $token" >"$work/stream-$RANDOM.txt" &
    streams+=($!)
  done
}

measure "no stream"
open_streams 1
measure "one stream"
open_streams 9
measure "ten streams"
events=$(cat "$work"/stream-*.txt | grep -c '^id:' || true)
echo "events received by the streams: $events" | tee -a "$out"

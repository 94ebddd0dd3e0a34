#!/usr/bin/env bash
# Console speed: builds the console and the release binary, serves them with demo data on a
# free port and measures the login page in Chromium (bench/console-speed.mjs).
# BASELINE_BIN=/path/to/an/older/backoffice also serves that binary (its own embedded
# console, own database) and measures both in alternation, printing after ÷ before.
# The two times are also shown at the scale of the machine issue 13 was written on: the
# static page of a reference server (bench/lib.sh; the console's own server runs the
# demo's worker and suppliers) is measured right before and right after the runs, and a
# time is multiplied by its rate over the issue's 46,900/s (bench/console_targets.py).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v wrk >/dev/null || scripts/setup.sh bench
. bench/lib.sh
make build >/dev/null
workdir=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; rm -rf "$workdir"' EXIT
serve() { # binary name → sets $url to the console's address once it answers
  local port
  port=$(python3 scripts/free-port.py)
  "$1" serve --demo --listen "127.0.0.1:$port" --database "sqlite://$workdir/$2.db" >"$workdir/$2.log" 2>&1 &
  pids+=($!)
  url="http://127.0.0.1:$port/web/"
  wait_for "$url"
}
urls=""
if [[ -n "${BASELINE_BIN:-}" ]]; then
  serve "$BASELINE_BIN" baseline
  urls="$url,"
fi
serve target/release/backoffice current
urls="$urls$url"
mkdir -p bench/results
echo "machine: $(uptime)" | tee bench/results/console.txt
start_reference target/release/backoffice "$workdir"
pids+=("$reference_pid")
before=$(DURATION=5s reference_rate)
node bench/console-speed.mjs "$urls" "${RUNS:-5}" | tee -a bench/results/console.txt | tee "$workdir/figures"
after=$(DURATION=5s reference_rate)
python3 bench/console_targets.py "$workdir/figures" "$before" "$after" | tee -a bench/results/console.txt

#!/usr/bin/env bash
# Console speed: builds the console and the release binary, serves them with demo data on a
# free port and measures the login page in Chromium (bench/console-speed.mjs).
# BASELINE_BIN=/path/to/an/older/backoffice also serves that binary (its own embedded
# console, own database) and measures both in alternation, printing after ÷ before.
set -euo pipefail
cd "$(dirname "$0")/.."
make build >/dev/null
workdir=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; rm -rf "$workdir"' EXIT
serve() { # binary name → sets $url to the console's address once it answers
  local port
  port=$(python3 scripts/free-port.py)
  "$1" serve --demo --listen "127.0.0.1:$port" --database "sqlite://$workdir/$2.db" >"$workdir/$2.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 1 100); do
    curl -fsS "http://127.0.0.1:$port/web/" >/dev/null 2>&1 && break
    sleep 0.1
  done
  url="http://127.0.0.1:$port/web/"
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
node bench/console-speed.mjs "$urls" "${RUNS:-5}" | tee -a bench/results/console.txt

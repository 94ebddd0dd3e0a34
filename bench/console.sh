#!/usr/bin/env bash
# Console speed: builds the console and the release binary, serves them with demo data
# on a free port and measures the login page in Chromium (bench/console-speed.mjs).
set -euo pipefail
cd "$(dirname "$0")/.."
make build >/dev/null
workdir=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
target/release/backoffice serve --demo --listen "127.0.0.1:$port" --database "sqlite://$workdir/bench.db" >"$workdir/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$workdir"' EXIT
for _ in $(seq 1 100); do
  curl -fsS "http://127.0.0.1:$port/web/" >/dev/null 2>&1 && break
  sleep 0.1
done
mkdir -p bench/results
node bench/console-speed.mjs "http://127.0.0.1:$port/web/" "${RUNS:-5}" | tee bench/results/console.txt

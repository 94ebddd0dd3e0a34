#!/usr/bin/env bash
# Notification benchmark: the sender against a local receiver in one process
# (bench/notify_bench.rs): delivered per second, and finish -> delivery latency at 100/s.
#   bench/notify.sh                  SQLite, 20,000 notifications
#   COUNT=50000 bench/notify.sh
#   ENGINES="sqlite postgres" bench/notify.sh   (PostgreSQL through scripts/with-postgres.sh)
# Figures are printed and written to bench/results/notify-<engine>.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
COUNT=${COUNT:-20000}
ENGINES=${ENGINES:-sqlite}
cargo build --release --locked --example notify_bench
mkdir -p bench/results
for engine in $ENGINES; do
  case $engine in
    sqlite) target/release/examples/notify_bench "$COUNT" | tee bench/results/notify-sqlite.txt ;;
    postgres)
      scripts/with-postgres.sh bash -c 'DATABASE_URL="$TEST_POSTGRES_URL" target/release/examples/notify_bench "$0"' "$COUNT" \
        | tee bench/results/notify-postgres.txt ;;
  esac
done

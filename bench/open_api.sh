#!/usr/bin/env bash
# Open-API orders vs the console's add order, same run (bench/open_api_bench.rs): 1 and 32
# concurrent clients, orders/s and p50/p99, and the cost of signature checking.
#   bench/open_api.sh                        SQLite and PostgreSQL, 2,000 orders per way and concurrency
#   ENGINES=sqlite COUNT=4000 bench/open_api.sh
# Figures are printed and written to bench/results/open-api-<engine>.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
COUNT=${COUNT:-2000}
ENGINES=${ENGINES:-"sqlite postgres"}
cargo build --release --locked --example open_api_bench
mkdir -p bench/results
for engine in $ENGINES; do
  case $engine in
    sqlite) target/release/examples/open_api_bench "$COUNT" | tee bench/results/open-api-sqlite.txt ;;
    postgres)
      scripts/with-postgres.sh bash -c 'DATABASE_URL="$TEST_POSTGRES_URL" target/release/examples/open_api_bench "$0"' "$COUNT" \
        | tee bench/results/open-api-postgres.txt ;;
  esac
done

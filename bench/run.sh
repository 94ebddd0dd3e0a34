#!/usr/bin/env bash
# Every benchmark, one after the other. Figures are printed and kept in bench/results/.
set -euo pipefail
cd "$(dirname "$0")"
./console.sh
./orders.sh
./open_api.sh
./open_api_load.sh
./notify.sh

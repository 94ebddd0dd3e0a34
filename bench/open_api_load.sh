#!/usr/bin/env bash
# Open-API orders against the console's add order, driven by wrk from its own process
# (issue 10). bench/open_api.sh runs its clients inside the server's process; here the server
# is alone in its process, and every request is built and signed before wrk's clock starts
# (bench/load/prepared.lua), so what differs between the two ways is the server's work.
# The demo merchant places orders each way for DURATION seconds with CONNECTIONS connections,
# the two ways taking turns for ROUNDS rounds (alternating which goes first). Prints each
# way's orders/s, p50 and p99, and the open API's cost against the console (target < 10 %).
#   bench/open_api_load.sh                               SQLite, 32 connections, 4 rounds of 4 s
#   CONNECTIONS=1 bench/open_api_load.sh                 one client
#   DATABASE_URL=postgres://… bench/open_api_load.sh     an empty PostgreSQL database
#   BACKOFFICE_BIN=/tmp/backoffice-before bench/open_api_load.sh
# The summary is also written to bench/results/open-api-load-<engine>.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
CONNECTIONS=${CONNECTIONS:-32}
DURATION=${DURATION:-4}
ROUNDS=${ROUNDS:-4}
# Requests prepared per phase: more than a phase can send (wrk would repeat them).
PER_PHASE=${PER_PHASE:-$((DURATION * 15000))}
command -v wrk >/dev/null || scripts/setup.sh bench
. bench/lib.sh
if [ -z "${BACKOFFICE_BIN:-}" ]; then cargo build --release --locked --bin backoffice; fi
bin=${BACKOFFICE_BIN:-target/release/backoffice}
work=$(mktemp -d /tmp/backoffice-open-api-load.XXXXXX)
server=""
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$work"' EXIT
port=$(python3 scripts/free-port.py)
base="http://127.0.0.1:$port"
database=${DATABASE_URL:-sqlite://$work/bench.db}

"$bin" serve --listen "127.0.0.1:$port" --database "$database" --demo --demo-orders 0 \
  --secret-key-file "$work/secret.key" --no-worker --api-rate-limit-per-minute 0 >"$work/server.log" 2>&1 &
server=$!
wait_for "$base/web/"
read -r key_id secret < <(sed -n 's/.*X-Key-Id \([^ ]*\)  secret \([^ ]*\).*/\1 \2/p' "$work/server.log" | head -1)
[ -n "$key_id" ] || { echo "no demo key in the server's log (an existing database keeps its key)" >&2; exit 1; }

python3 - "$base" "$key_id" "$secret" "$work" "$ROUNDS" "$PER_PHASE" <<'PYTHON'
"""Tops the demo merchant up, then writes each phase's requests, signed for the open API
by the documented example's client (docs/examples/merchant_api.py)."""
import json, sys, urllib.request, uuid
sys.path.insert(0, "docs/examples")
from merchant_api import Client
base, key_id, secret, work, rounds, per_phase = sys.argv[1:4] + [sys.argv[4], int(sys.argv[5]), int(sys.argv[6])]
client = Client(base, key_id, secret)

def post(path, body, headers=None):
    request = urllib.request.Request(base + path, json.dumps(body).encode(), {"Content-Type": "application/json", **(headers or {})})
    answer = json.load(urllib.request.urlopen(request))
    assert answer["code"] == 20000, answer
    return answer["data"]

token = post("/adminapi/login/login", {"username": "merchant", "password": "Merchant123"})["token"]
admin = post("/adminapi/login/login", {"username": "admin", "password": "Admin123"})["token"]
post("/adminapi/admin/merchant/topup", {"merchant_id": 10001, "amount_fen": 10**10, "remark": "open API load bench"},
     {"Authorization": "Bearer " + admin, "Idempotency-Key": uuid.uuid4().hex})
run = uuid.uuid4().hex[:8]
for round_ in range(rounds):
    for way in ("console", "openapi"):
        with open(f"{work}/{way}-{round_}.txt", "w") as out:
            for index in range(per_phase):
                body = json.dumps({"account": "13800138000", "product_key": "MOBILE-DIRECT-10",
                                   "merchant_order_id": f"L{run}-{way[0]}{round_}-{index}"}, separators=(",", ":"))
                if way == "console":
                    out.write(f"/adminapi/order/add\t{body}\tAuthorization: Bearer {token}\n")
                    continue
                headers = client.signed_headers("POST", "/openapi/v1/orders", body.encode())
                out.write("\t".join(["/openapi/v1/orders", body] + [f"{name}: {value}" for name, value in headers.items()]) + "\n")
PYTHON

threads=2
[ "$CONNECTIONS" -lt 2 ] && threads=1
echo "open API against console add order: $CONNECTIONS connection(s), $ROUNDS rounds of ${DURATION} s each way"
for round in $(seq 0 $((ROUNDS - 1))); do
  ways="console openapi"
  [ $((round % 2)) = 1 ] && ways="openapi console"
  for way in $ways; do
    line=$(THREADS=$threads REQUESTS="$work/$way-$round.txt" wrk -t"$threads" -c"$CONNECTIONS" -d"${DURATION}s" \
      -s bench/load/prepared.lua "$base" | grep '^RESULT')
    echo "$way $line" | tee -a "$work/results"
  done
done
# RESULT requests seconds p50_ms p99_ms status_errors
mkdir -p bench/results
engine=sqlite
case $database in postgres*) engine=postgres ;; esac
python3 - "$work/results" <<'PYTHON' | tee "bench/results/open-api-load-$engine.txt"
import sys
ways = {}
for line in open(sys.argv[1]):
    way, _, requests, seconds, p50, p99, errors = line.split()
    ways.setdefault(way, []).append((int(requests), float(seconds), float(p50), float(p99), int(errors)))
rates = {}
for way, label in (("console", "console add order"), ("openapi", "open API order")):
    phases = ways[way]
    rates[way] = sum(p[0] for p in phases) / sum(p[1] for p in phases)
    errors = sum(p[4] for p in phases)
    print(f"{label:<17}: {rates[way]:,.0f} orders/s, p50 {sum(p[2] for p in phases) / len(phases):.2f} ms (mean of rounds), "
          f"p99 {max(p[3] for p in phases):.2f} ms (worst round), rounds {', '.join(f'{p[0] / p[1]:,.0f}' for p in phases)}/s"
          + (f", {errors} refused (raise PER_PHASE)" if errors else ""))
print(f"open API / console throughput {rates['openapi'] / rates['console']:.3f} "
      f"(signature checking costs {(rates['console'] / rates['openapi'] - 1) * 100:+.1f} %)")
PYTHON

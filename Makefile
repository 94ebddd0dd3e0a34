# The two commands a newcomer needs:
#   make run    build everything and serve the console with demo data on http://127.0.0.1:8080/web/
#   make test   lint (fmt, clippy, tsc, eslint), then every test: server (SQLite and PostgreSQL), a failover run on a local PostgreSQL cluster, console unit tests, browser tests,
#               and a bounded schemathesis pass over the API contract
.PHONY: run test lint build web setup-web setup-test test-server test-chaos chaos test-web test-e2e api-types api-types-check fuzz-api bench clean

LISTEN ?= 127.0.0.1:8080
DATABASE_URL ?= sqlite://data/backoffice.db
BINARY := target/release/backoffice

run: build
	$(BINARY) serve --demo --listen $(LISTEN) --database $(DATABASE_URL)

build: web
	cargo build --release --locked

# vite alone: the type check (tsc) is the lint's, so `make test` does not run it twice
# (`npm run build` in web/ still runs both).
web: setup-web
	cd web && npx vite build && node scripts/compress.mjs dist

setup-web:
	scripts/setup.sh web

setup-test:
	scripts/setup.sh test

# Lint first: it is fast and catches what the long steps would only trip over later.
test: lint setup-test web
	cargo build --release --locked
	$(MAKE) api-types-check test-server test-chaos test-web test-e2e fuzz-api FUZZ_SEED=20261124

# Formatting, clippy with every warning an error, the console's type check and eslint
# (typescript-eslint and React's hook rules, web/eslint.config.js).
lint: setup-web
	cargo fmt --all --check
	cargo clippy --release --locked --workspace --all-targets -- -D warnings
	cd web && npx tsc --noEmit
	cd web && npm run lint

# The API tests run against SQLite and, through a throwaway cluster, PostgreSQL. They
# spend most of their time waiting (a live monitor's next tick, a restarted server, a
# commit's flush), so they run on more threads than cores: at least six (on 2 cores the
# API suite took 194 s on two threads, 149 s on six; 2026-11-28). `--workspace`: the API
# tests are the package tests/api/ (Cargo.toml says why).
TEST_THREADS ?= $(shell n=$$(nproc); [ $$n -gt 6 ] && echo $$n || echo 6)
test-server:
	scripts/with-postgres.sh cargo test --release --locked --workspace -- --test-threads=$(TEST_THREADS)

# The console's API types (web/src/api/schema.d.ts), generated from the OpenAPI document
# the binary serves (`backoffice openapi`). Run after changing an endpoint's annotations.
# A field with a default is optional, as the document says (openapi-typescript would make
# it required: a request field the server defaults, `default: null`, could not be left out).
OPENAPI_TS := npx openapi-typescript --default-non-nullable false
api-types:
	cargo build --release --locked
	$(BINARY) openapi > target/openapi.json
	cd web && $(OPENAPI_TS) ../target/openapi.json --output src/api/schema.d.ts

# Fails when web/src/api/schema.d.ts is not what `make api-types` would write.
api-types-check:
	$(BINARY) openapi > target/openapi.json
	cd web && $(OPENAPI_TS) ../target/openapi.json --output ../target/schema.d.ts
	@cmp -s web/src/api/schema.d.ts target/schema.d.ts || \
	  { echo "web/src/api/schema.d.ts is stale: run make api-types"; diff -u web/src/api/schema.d.ts target/schema.d.ts | head -40; exit 1; }

# Schema fuzzing with every schemathesis check, merchant and administrator tokens: the
# server must answer exactly what the OpenAPI document says. Bounded (EXAMPLES per
# operation, default 5: a few minutes; the last step of `make test`); EXAMPLES=25 make
# fuzz-api for a longer run. `make test` fixes the seed (FUZZ_SEED) so that the same
# requests are sent on every run and a red run can be repeated; `make fuzz-api` alone
# draws a new seed each time, to explore.
FUZZ_SEED ?=
fuzz-api:
	SEED=$(FUZZ_SEED) scripts/fuzz-api.sh

# The failover test (scripts/chaos.py, docs/operations.md "Rehearsing it"): the local
# cluster of scripts/cluster.sh (Patroni, etcd, a primary and a synchronous standby,
# HAProxy, two servers), 16 clients placing orders through it while the primary's
# PostgreSQL and a server are killed, then checks that nothing was lost, placed, handed to a
# supplier, charged or refunded twice, that each outage stayed under 30 s and that every
# callback arrived. `make chaos` loads it for 90 s (CHAOS_SECONDS); `make test` runs it
# bounded (40 s of load, about three minutes in all).
CHAOS_SECONDS ?= 90
chaos: build
	scripts/setup.sh cluster
	scripts/chaos.py --seconds $(CHAOS_SECONDS)

test-chaos:
	scripts/chaos.py --seconds 40

# The unit tests, then the login page's JavaScript budget (npm run size:login, 120 kB gzip).
test-web:
	cd web && npm test
	cd web && npm run size:login

test-e2e:
	cd web && BACKOFFICE_BIN=$(CURDIR)/$(BINARY) npx playwright test

bench: build
	bench/run.sh

clean:
	cargo clean
	rm -rf web/dist web/node_modules

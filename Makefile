# The two commands a newcomer needs:
#   make run    build everything and serve the console with demo data on http://127.0.0.1:8080/web/
#   make test   every test: server (SQLite and PostgreSQL), console unit tests, browser tests
.PHONY: run test build web setup-web setup-test test-server test-web test-e2e bench clean

LISTEN ?= 127.0.0.1:8080
DATABASE_URL ?= sqlite://data/backoffice.db
BINARY := target/release/backoffice

run: build
	$(BINARY) serve --demo --listen $(LISTEN) --database $(DATABASE_URL)

build: web
	cargo build --release --locked

web: setup-web
	cd web && npm run build && node scripts/compress.mjs dist

setup-web:
	scripts/setup.sh web

setup-test:
	scripts/setup.sh test

test: setup-test web
	cargo build --release --locked
	$(MAKE) test-server test-web test-e2e

# The API tests run against SQLite and, through a throwaway cluster, PostgreSQL.
test-server:
	scripts/with-postgres.sh cargo test --release --locked

test-web:
	cd web && npm test

test-e2e:
	cd web && BACKOFFICE_BIN=$(CURDIR)/$(BINARY) npx playwright test

bench: build
	bench/run.sh

clean:
	cargo clean
	rm -rf web/dist web/node_modules

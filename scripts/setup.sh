#!/usr/bin/env bash
# Installs what the project needs and is missing. Safe to run again: it only acts on
# what is absent.
#   scripts/setup.sh web    npm packages of the console (enough for `make run`)
#   scripts/setup.sh test   also PostgreSQL, Chromium, a CJK font, the API fuzzer and the
#                           failover cluster's packages (for `make test`)
#   scripts/setup.sh fuzz   schemathesis, pinned, into .venv/ (scripts/fuzz-api.sh)
#   scripts/setup.sh bench  also wrk and PostgreSQL (for bench/load.sh)
#   scripts/setup.sh cluster  also Patroni, etcd and HAProxy (for scripts/cluster.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-web}

apt_install() {
  local missing=()
  for package in "$@"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "installing Debian packages: ${missing[*]}" >&2
  local sudo=""
  if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

if ! command -v npm >/dev/null 2>&1; then
  apt_install nodejs npm
fi

if [ "$what" = test ]; then
  # PostgreSQL for the API tests on the second engine; Chromium and a CJK font for the
  # browser tests (Playwright drives Debian's Chromium and never downloads a browser).
  apt_install postgresql chromium fonts-wqy-zenhei python3
  # The failover test (scripts/chaos.py) runs the local cluster: as `cluster` below.
  what_cluster=1
fi
if [ "$what" = bench ]; then
  apt_install wrk postgresql python3
fi

if [ "$what" = cluster ] || [ -n "${what_cluster:-}" ]; then
  # The local failover cluster (scripts/cluster.sh, docs/operations.md "Deployment with a failover cluster"):
  # Patroni as the failover manager, etcd as its store (Patroni's etcd3 backend imports
  # python3-etcd for its exceptions), HAProxy as the proxy in front of PostgreSQL and of
  # the servers. Debian starts etcd as a service on install; the script runs its own.
  apt_install postgresql patroni etcd-server python3-etcd haproxy python3 curl
fi
if [ "$what" = fuzz ] || [ "$what" = test ]; then
  # The API fuzzer (`make test` runs a bounded pass), at the version pinned in
  # scripts/fuzz-requirements.txt, from PyPI into a venv under the project (ignored by
  # git); reinstalled only when the pin changes.
  apt_install python3 python3-venv curl
  [ -x .venv/bin/pip ] || python3 -m venv .venv
  if ! cmp -s scripts/fuzz-requirements.txt .venv/.installed-requirements 2>/dev/null; then
    .venv/bin/pip install -q -r scripts/fuzz-requirements.txt
    cp scripts/fuzz-requirements.txt .venv/.installed-requirements
  fi
fi

# npm ci only when the lock file changed since the last install.
stamp=web/node_modules/.installed-lock
if [ ! -f "$stamp" ] || ! cmp -s web/package-lock.json "$stamp"; then
  (cd web && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund)
  cp web/package-lock.json "$stamp"
fi

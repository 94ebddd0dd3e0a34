#!/usr/bin/env python3
"""Places one demo order after another through a cluster's API (scripts/cluster.sh up prints
it) and reports each outage: when orders stopped being placed, how long until one was placed
again, and what the calls answered meanwhile (HTTP status, envelope code and message).

    scripts/cluster-probe.py http://127.0.0.1:PORT [--seconds 60] [--interval 0.2]

Run it, then `scripts/cluster.sh kill-primary` (or kill-server) in another shell. Each
order carries its own Idempotency-Key. By default a call that fails is not retried (the
probe measures what a caller sees), so a call whose answer was lost may still have placed
its order; with --retry a failed call is sent again with the same key until it is answered,
as a careful client does, and every order should then exist exactly once: compare the
orders answered with the database's count.
Standard library only: it runs on a fresh machine.
"""
import argparse
import os
import sys
import time
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from chaos_load import post_json  # noqa: E402


def call(base, path, body, token=None, key=None, timeout=15.0):
    """POSTs JSON; answers (HTTP status, envelope or None, error text or None)."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    if key:
        headers["Idempotency-Key"] = key
    return post_json(base + path, body, headers, timeout)


def login(base):
    status, body, error = call(base, "/adminapi/login/login", {"username": "merchant", "password": "Merchant123"})
    if not body or body.get("code") != 20000:
        raise SystemExit(f"cannot sign in as the demo merchant: {status} {body or error}")
    return body["data"]["token"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("api")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--interval", type=float, default=0.2)
    parser.add_argument("--retry", action="store_true", help="send a failed call again with its key")
    args = parser.parse_args()
    base = args.api.rstrip("/")
    token = login(base)
    start = time.monotonic()
    placed = 0
    failing_since = None  # monotonic time of the first failed call of an outage
    last_ok = None
    seen = {}  # what failed calls answered during the current outage, with counts
    outages = []
    key = None
    while time.monotonic() - start < args.seconds:
        sent = time.monotonic()
        if key is None or not args.retry:
            key = str(uuid.uuid4())
        status, body, error = call(
            base, "/adminapi/order/add", {"account": "13800138000", "product_key": "MOBILE-DIRECT-10"},
            token=token, key=key)
        now = time.monotonic()
        if body and body.get("code") == 20000:
            placed += 1
            if failing_since is not None:
                outage = now - (last_ok if last_ok is not None else failing_since)
                outages.append(outage)
                print(f"{time.strftime('%H:%M:%S')} placed again: {outage:.1f} s since the last order placed "
                      f"before it; failed calls: {seen}", flush=True)
                failing_since, seen = None, {}
            last_ok = now
            key = None
        else:
            if failing_since is None:
                failing_since = sent
                print(f"{time.strftime('%H:%M:%S')} first failure after {placed} orders", flush=True)
            what = f"{status} {body.get('code')} {body.get('msg')}" if body else f"{status} {error}"
            seen[what] = seen.get(what, 0) + 1
            if body and body.get("code") == 50008:  # the session was lost: sign in again
                token = login(base) if status else token
        time.sleep(max(0.0, args.interval - (time.monotonic() - sent)))
    print(f"orders answered as placed: {placed}; outages (s): {[round(o, 1) for o in outages]}"
          + (f"; still failing: {seen}" if failing_since is not None else ""), flush=True)


if __name__ == "__main__":
    main()

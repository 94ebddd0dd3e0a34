#!/usr/bin/env python3
"""Calling the backoffice merchant open API (/openapi/v1) with the Python standard library.

Signs every request, verifies every answer's signature, and shows idempotent ordering:
    python3 merchant_api.py --base http://127.0.0.1:8080 --key-id ak_... --secret sk_...
With `make run` the demo key is printed at start. This file runs in the test suite
(tests/api/open_api_example.rs), so it stays true to the server.
"""

import argparse
import hashlib
import hmac
import json
import secrets
import sys
import time
import urllib.error
import urllib.request


class Client:
    def __init__(self, base, key_id, secret):
        self.base = base.rstrip("/")
        self.key_id = key_id
        self.secret = secret.encode()

    def _sign(self, text):
        return hmac.new(self.secret, text.encode(), hashlib.sha256).hexdigest()

    def signed_headers(self, method, path, raw):
        """The four headers that sign one call: method, path with query, raw body bytes."""
        timestamp = str(int(time.time()))
        nonce = secrets.token_urlsafe(24)  # 32 characters of A-Za-z0-9_-
        to_sign = "\n".join([method, path, timestamp, nonce, hashlib.sha256(raw).hexdigest()])
        return {"X-Key-Id": self.key_id, "X-Timestamp": timestamp, "X-Nonce": nonce, "X-Signature": self._sign(to_sign)}

    def call(self, method, path, body=None):
        """Sends one signed call; returns (HTTP status, envelope). Raises if the answer's
        signature does not verify."""
        raw = b"" if body is None else json.dumps(body, separators=(",", ":")).encode()
        headers = self.signed_headers(method, path, raw)
        nonce = headers["X-Nonce"]
        request = urllib.request.Request(self.base + path, data=raw or None, method=method, headers=headers)
        if raw:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                status, headers, answer = response.status, response.headers, response.read()
        except urllib.error.HTTPError as error:
            status, headers, answer = error.code, error.headers, error.read()
        signature = headers.get("X-Signature")
        if signature is not None:
            expected = "\n".join(
                [str(status), headers["X-Timestamp"], headers["X-Nonce"], hashlib.sha256(answer).hexdigest()]
            )
            if headers["X-Nonce"] != nonce or not hmac.compare_digest(signature, self._sign(expected)):
                raise RuntimeError("the answer's signature does not verify")
        return status, json.loads(answer)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", required=True)
    parser.add_argument("--key-id", required=True)
    parser.add_argument("--secret", required=True)
    parser.add_argument("--order-id", default="PY" + secrets.token_hex(8))
    args = parser.parse_args()
    client = Client(args.base, args.key_id, args.secret)

    status, balance = client.call("GET", "/openapi/v1/balance")
    assert balance["code"] == 20000, balance
    print("spendable_fen", balance["data"]["spendable_fen"])

    status, products = client.call("GET", "/openapi/v1/products")
    product = next(p for p in products["data"] if p["product_key"] == "MOBILE-DIRECT-10")
    print("product", product["product_key"], "price_fen", product["price_fen"])

    order = {"merchant_order_id": args.order_id, "product_key": "MOBILE-DIRECT-10", "account": "13800138000"}
    status, placed = client.call("POST", "/openapi/v1/orders", order)
    assert placed["code"] == 20000, placed
    # A retry with the same body answers the same order and charges nothing.
    status, again = client.call("POST", "/openapi/v1/orders", order)
    assert again["code"] == 20000 and again["data"]["order_no"] == placed["data"]["order_no"], again
    # The same merchant_order_id with another body is refused.
    status, refused = client.call("POST", "/openapi/v1/orders", dict(order, product_key="MOBILE-DIRECT-20"))
    assert refused["code"] == 40930, refused

    status, read = client.call("GET", "/openapi/v1/orders/" + args.order_id)
    assert read["code"] == 20000, read
    print("order_no", read["data"]["order_no"], "status", read["data"]["status_name"])
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The load of the chaos run (scripts/chaos.py): clients placing orders through the servers'
proxy, each call retried with its own key until it is answered, and the receiver of the
merchants' callbacks. Standard library only.
"""
import hashlib
import hmac
import http.server
import json
import secrets
import threading
import time
import urllib.error
import urllib.request

# Answers that leave a call's outcome open or say "later": the call is sent again, with the
# same key, until it is answered (an order, or a definite refusal).
RETRYABLE_STATUS = {429, 502, 503, 504}
# Each call is given up after this long: longer than any outage the run allows (30 s).
GIVE_UP_SECONDS = 120.0


def post_json(url, body, headers, timeout):
    """One HTTP call; answers (status or None, envelope or None, what went wrong or None)."""
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    request = urllib.request.Request(url, data=raw, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read() or b"null"), None
    except urllib.error.HTTPError as error:
        answer = error.read()
        try:
            return error.code, json.loads(answer), None
        except ValueError:
            return error.code, None, answer[:80].decode(errors="replace")
    except (OSError, ValueError) as error:  # refused, reset, timed out, cut mid-answer
        return None, None, type(error).__name__


def sign_in(base, username, password):
    status, body, error = post_json(
        base + "/adminapi/login/login", {"username": username, "password": password},
        {"Content-Type": "application/json"}, 15)
    if not body or body.get("code") != 20000:
        raise RuntimeError(f"cannot sign in as {username}: {status} {body or error}")
    return body["data"]["token"]


class Record:
    """What every client saw, shared by the clients (under a lock)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.calls = []  # {kind, key, order_no, sent, answered, attempts, answers: [(status, code)]}
        self.attempts = []  # (sent, finished, ok) of every attempt, for the outage figures

    def attempt(self, sent, finished, ok):
        with self.lock:
            self.attempts.append((sent, finished, ok))

    def call(self, call):
        with self.lock:
            self.calls.append(call)


class Session:
    """One console session shared by the console clients, as tabs of one browser share
    theirs (each signing in would meet the sign-in throttle); signed in again if lost."""

    def __init__(self, base, username, password):
        self.base, self.username, self.password = base, username, password
        self.lock = threading.Lock()
        self.current = sign_in(base, username, password)

    def token(self):
        with self.lock:
            if self.current is None:
                try:
                    self.current = sign_in(self.base, self.username, self.password)
                except RuntimeError:
                    return None
            return self.current

    def lost(self, token):
        with self.lock:
            if self.current == token:
                self.current = None


class Client(threading.Thread):
    """Places one order after another until told to stop; kind 'console' (a session,
    Idempotency-Key, the key in the order's remark) or 'open' (signed open API, the
    merchant order id as the key)."""

    def __init__(self, number, kind, base, record, stop, credentials, product_key, pause):
        super().__init__(name=f"{kind}-{number}", daemon=True)
        self.number, self.kind, self.base, self.record, self.stop = number, kind, base, record, stop
        self.credentials, self.product_key, self.pause = credentials, product_key, pause
        self.sequence = 0
        self.token_seen = None

    def account(self):
        # A China Mobile number (138 segments) no other call of the run uses: the platform
        # refuses a number with an order in progress (40940), and an order a killed server
        # held waits for its lease (60 s) before it finishes.
        self.sequence += 1
        return f"138{self.number:02d}{self.sequence:06d}"

    def run(self):
        sequence = 0
        while not self.stop.is_set():
            sequence += 1
            key = f"CHAOS-{self.kind[0].upper()}{self.number:02d}-{sequence:06d}-{secrets.token_hex(3)}"
            self.place(key, self.account())
            self.stop.wait(self.pause)

    def place(self, key, account):
        call = {"kind": self.kind, "key": key, "order_no": None, "sent": time.monotonic(), "answered": None,
                "attempts": 0, "answers": []}
        while time.monotonic() - call["sent"] < GIVE_UP_SECONDS:
            call["attempts"] += 1
            sent = time.monotonic()
            status, body, error = self.send(key, account)
            finished = time.monotonic()
            code = body.get("code") if isinstance(body, dict) else None
            ok = code == 20000
            self.record.attempt(sent, finished, ok)
            call["answers"].append((status, code if code is not None else error))
            if ok:
                data = body["data"]
                call["order_no"] = (data.get("order") or data)["order_no"]
                call["answered"] = finished
                break
            if code == 50008 or status == 401:  # the session was lost: sign in again
                self.credentials["session"].lost(self.token_seen)
            elif status is not None and status not in RETRYABLE_STATUS and code not in (50300,):
                call["refused"] = f"{status} {code} {body.get('msg') if body else error}"
                break
            retry_after = 0.5 if status is None else 1.0
            time.sleep(retry_after)
        self.record.call(call)

    def send(self, key, account):
        if self.kind == "console":
            self.token_seen = self.credentials["session"].token()
            if self.token_seen is None:
                return None, None, "signing in"
            body = {"account": account, "product_key": self.product_key, "remark": key}
            headers = {"Content-Type": "application/json", "Authorization": f"Bearer {self.token_seen}",
                       "Idempotency-Key": key, "Accept-Language": "en-US"}
            return post_json(self.base + "/adminapi/order/add", body, headers, 15)
        key_id, secret = self.credentials["open"]
        path = "/openapi/v1/orders"
        raw = json.dumps({"merchant_order_id": key, "product_key": self.product_key, "account": account},
                         separators=(",", ":")).encode()
        timestamp, nonce = str(int(time.time())), secrets.token_urlsafe(24)
        to_sign = "\n".join(["POST", path, timestamp, nonce, hashlib.sha256(raw).hexdigest()])
        signature = hmac.new(secret.encode(), to_sign.encode(), hashlib.sha256).hexdigest()
        headers = {"Content-Type": "application/json", "X-Key-Id": key_id, "X-Timestamp": timestamp,
                   "X-Nonce": nonce, "X-Signature": signature}
        return post_json(self.base + path, raw, headers, 15)


class Receiver:
    """The merchant's notify URL: counts each webhook-id once, by order and event type."""

    def __init__(self):
        self.lock = threading.Lock()
        self.events = {}  # webhook-id -> (type, order_no)
        self.deliveries = 0
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            # Keep-alive: the senders reuse their connections instead of opening one each.
            protocol_version = "HTTP/1.1"

            def do_POST(self):
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                try:
                    event = json.loads(raw)
                    what = (event.get("type"), (event.get("data") or {}).get("order_no"))
                except ValueError:
                    what = ("unreadable", None)
                with receiver.lock:
                    receiver.deliveries += 1
                    receiver.events.setdefault(self.headers.get("webhook-id"), what)
                self.send_response(200)
                self.send_header("Content-Length", "7")
                self.end_headers()
                try:
                    self.wfile.write(b"success")
                except OSError:  # the sender gave up waiting: it will send again
                    pass

            def log_message(self, *args):
                pass

        class Server(http.server.ThreadingHTTPServer):
            # A server sends a batch of notifications at once: room for all of their
            # connections (the default, 5, drops the rest until they time out).
            request_queue_size = 1024
            daemon_threads = True

        self.server = Server(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/notify"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def finished_by_order(self):
        """order_no -> the distinct webhook-ids of its order.finished events."""
        with self.lock:
            out = {}
            for webhook_id, (kind, order_no) in self.events.items():
                if kind == "order.finished":
                    out.setdefault(order_no, set()).add(webhook_id)
            return out

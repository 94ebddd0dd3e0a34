"""The kills of the chaos run (scripts/chaos.py) and what they cost: when the failover manager
promoted the standby, when HAProxy switched, when the first order was placed again, and the
longest time without an order placed. Also reads a supplier simulator's book. Standard
library only.
"""
import hashlib
import hmac
import json
import re
import socket
import threading
import time
import urllib.request


def simulator_book(simulator):
    """Every order the simulator was given ({upstream_order_id, submissions, succeeds, ...}),
    or None while it does not answer. The GET is signed over its (empty) query string."""
    signature = hmac.new(simulator["secret"].encode(), b"", hashlib.sha256).hexdigest()
    request = urllib.request.Request(simulator["url"] + "/book", headers={"x-signature": signature})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read())["orders"]
    except (OSError, ValueError, KeyError):
        return None


def read_ports(folder):
    ports = {}
    with open(f"{folder}/ports") as file:
        for name, value in re.findall(r'declare -\S* (\w+)="?([^"\n]*)"?', file.read()):
            ports[name] = value
    return ports


def http_json(url):
    try:
        with urllib.request.urlopen(url, timeout=1) as response:
            return json.loads(response.read())
    except (OSError, ValueError):
        return None


class Watch:
    def __init__(self, folder):
        self.folder = folder
        self.ports = read_ports(folder)

    def haproxy_status(self):
        """{(proxy, server): status} from HAProxy's stats socket, or {} if it does not answer."""
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
                connection.settimeout(1)
                connection.connect(f"{self.folder}/haproxy.sock")
                connection.sendall(b"show stat\n")
                raw = b""
                while chunk := connection.recv(65536):
                    raw += chunk
        except OSError:
            return {}
        lines = raw.decode().splitlines()
        header = lines[0].lstrip("# ").split(",")
        status = header.index("status")
        return {(row[0], row[1]): row[status] for row in (line.split(",") for line in lines[1:] if line)}

    def primary(self):
        for node in ("1", "2"):
            state = http_json(f"http://127.0.0.1:{self.ports['rest' + node + '_port']}/")
            if state and state.get("role") in ("master", "primary") and state.get("state") == "running":
                return f"pg{node}"
        return None

    def poll_until(self, condition, limit):
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            if condition():
                return time.monotonic()
            time.sleep(0.1)
        return None

    def kill_primary(self, cluster, record):
        old = self.primary()
        at = time.monotonic()
        print(cluster("kill-primary").strip(), flush=True)
        kill = {"what": f"primary PostgreSQL ({old})", "at": at}

        def follow():
            promoted = self.poll_until(lambda: (self.primary() or old) != old, 60)
            kill["promoted_s"] = None if promoted is None else promoted - at
            new = self.primary()
            switched = self.poll_until(lambda: self.haproxy_status().get(("postgres", new)) == "UP"
                                       and self.haproxy_status().get(("postgres", old)) != "UP", 30)
            kill["proxy_switched_s"] = None if switched is None else switched - at
            kill["what"] = f"primary PostgreSQL ({old} → {new})"

        kill["thread"] = threading.Thread(target=follow, daemon=True)
        kill["thread"].start()
        return kill

    def kill_server(self, cluster, record):
        at = time.monotonic()
        print(cluster("kill-server", "2").strip(), flush=True)
        kill = {"what": "backoffice server api2", "at": at, "promoted_s": None}

        def follow():
            down = self.poll_until(lambda: self.haproxy_status().get(("api", "api2"), "").startswith("DOWN"), 30)
            kill["proxy_switched_s"] = None if down is None else down - at

        kill["thread"] = threading.Thread(target=follow, daemon=True)
        kill["thread"].start()
        return kill

    def wait_for_success_after(self, record, at, limit):
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            with record.lock:
                if any(ok and sent > at for sent, _, ok in record.attempts):
                    return
            time.sleep(0.2)


def outage_figures(record, at, window=60.0):
    """The first order placed by a call sent after the kill; the longest time without an order
    placed from the kill on (within `window` seconds), and when after the kill it ended (the
    platform placing orders again). Existing connections to a killed primary may still commit
    for a moment (its backends outlive the postmaster briefly), so the gap may start later."""
    with record.lock:
        successes = sorted(finished for _, finished, ok in record.attempts if ok and finished > at)
        first_new = min((finished for sent, finished, ok in record.attempts if ok and sent > at), default=None)
    longest, again, previous = 0.0, 0.0, at
    for finished in successes:
        if finished > at + window:
            break
        if finished - previous > longest:
            longest, again = finished - previous, finished - at
        previous = finished
    if not successes:
        longest = again = None
    return {"first_order_s": None if first_new is None else first_new - at, "without_orders_s": longest,
            "placed_again_s": again}

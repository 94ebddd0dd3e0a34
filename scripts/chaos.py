#!/usr/bin/env python3
"""The failover test (`make chaos`; a bounded run inside `make test`; docs/operations.md,
"Rehearsing it"). Brings up the local cluster (scripts/cluster.sh), points the channels at
two supplier simulators of its own, places orders from 16 clients through the servers'
proxy (console calls and signed open-API calls, each retried with its own key on a timeout,
a 502/503/504 or a 429 until it is answered), kills the primary's PostgreSQL once and a
backoffice server once during the load, lets every order finish, then checks:

  - every order a client saw acknowledged exists exactly once, and is the one every answer
    to that call named; no order exists that no call placed;
  - no order was handed to a supplier simulator twice (each upstream order submitted once,
    at most one success per order, and it is the order's own);
  - no merchant was charged or refunded twice, and the account log sums to the balances;
  - the platform placed orders again within 30 s of each kill;
  - every finished order's callback reached the receiver (each webhook-id counted once).

It prints the figures and exits 1 if any check fails.

    scripts/chaos.py [--seconds 90] [--binary target/release/backoffice] [--keep]
Standard library only (and psql, which the cluster's packages bring).
"""
import argparse
import os
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from chaos_checks import Checks  # noqa: E402
from chaos_load import Client, Receiver, Record, Session, post_json, sign_in  # noqa: E402
from chaos_watch import Watch, outage_figures, simulator_book  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLUSTER = os.path.join(ROOT, "scripts", "cluster.sh")
# The chaos run's cluster is found through its own pointer, so that a developer's cluster
# (scripts/cluster.sh up) is left alone.
ENV = dict(os.environ, BACKOFFICE_CLUSTER_POINTER="/tmp/backoffice-chaos.current")
PRODUCT = "MOBILE-DIRECT-10"
# The demo merchant (src/app/demo.rs), whose users and key the clients use.
DEMO_MERCHANT = 10001


def cluster(*args):
    result = subprocess.run([CLUSTER, *args], env=ENV, capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"scripts/cluster.sh {' '.join(args)} failed:\n{result.stdout}{result.stderr}")
    return result.stdout


def up(binary):
    if os.path.exists(ENV["BACKOFFICE_CLUSTER_POINTER"]):
        print("a chaos cluster of an earlier run is still up: removing it", flush=True)
        cluster("down")
    out = cluster("up", binary)
    facts = dict(line.split("=", 1) for line in out.splitlines() if "=" in line and line.split("=", 1)[0].isupper())
    key_line = next(line for line in out.splitlines() if line.startswith("demo open-API key"))
    words = key_line.split()
    facts["KEY_ID"] = words[words.index("X-Key-Id") + 1]
    facts["SECRET"] = words[words.index("secret") + 1]
    with open(ENV["BACKOFFICE_CLUSTER_POINTER"]) as pointer:
        facts["DIR"] = pointer.read().strip()
    return facts


def start_simulators(binary, folder):
    """Two suppliers: A, cheap and flaky (failures, lost answers), tried first; B, reliable."""
    ports = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "free-port.py"), "2"],
                           capture_output=True, text=True, check=True).stdout.split()
    simulators = {}
    for (code, options), port in zip(
            [("sim-cheap", ["--success-ratio", "0.85", "--unknown-ratio", "0.05", "--delay-ms", "300",
                            "--callback-delay-ms", "100", "--duplicate-callbacks"]),
             ("sim-reliable", ["--success-ratio", "1.0", "--delay-ms", "200"])], ports):
        secret = os.urandom(16).hex()
        log = open(os.path.join(folder, f"chaos-{code}.log"), "w")
        process = subprocess.Popen([binary, "supplier-sim", "--listen", f"127.0.0.1:{port}", "--secret", secret,
                                    *options], stdout=log, stderr=log)
        simulators[code] = {"url": f"http://127.0.0.1:{port}", "secret": secret, "process": process}
    deadline = time.monotonic() + 30
    for simulator in simulators.values():
        while simulator_book(simulator) is None:
            if time.monotonic() > deadline or simulator["process"].poll() is not None:
                raise SystemExit(f"a supplier simulator did not start: see {folder}/chaos-*.log")
            time.sleep(0.2)
    return simulators


def admin_call(base, token, path, body):
    status, answer, error = post_json(base + path, body, {"Content-Type": "application/json",
                                                          "Authorization": f"Bearer {token}"}, 15)
    if not answer or answer.get("code") != 20000:
        raise SystemExit(f"{path} failed: {status} {answer or error}")
    return answer["data"]


def prepare(base, simulators, receiver_url):
    """The demo's flaky and reliable channels point at the run's simulators; the others are
    switched off, so that every order goes to a supplier whose book the run reads. The
    merchant's notify URL is the run's receiver."""
    admin = sign_in(base, "admin", "Admin123")
    for channel in admin_call(base, admin, "/adminapi/admin/channel/list", {}):
        simulator = simulators.get(channel["code"])
        if simulator:
            admin_call(base, admin, "/adminapi/admin/channel/save", {
                "code": channel["code"], "name": channel["name"], "adapter": "http-json",
                "base_url": simulator["url"], "secret": simulator["secret"], "timeout_ms": 3000,
                "enabled": True, "low_balance_fen": 0})
        elif channel["enabled"]:
            admin_call(base, admin, "/adminapi/admin/channel/enable", {"id": channel["id"], "enabled": False})
    merchant = sign_in(base, "merchant", "Merchant123")
    admin_call(base, merchant, "/adminapi/merchant/changeIntegration",
               {"notify_url": receiver_url, "ip_whitelist": "127.0.0.1,::1"})
    # Enough for any run (some 200 orders of 9.80 yuan a second): a refusal for a short
    # balance would fail the run.
    admin_call(base, admin, "/adminapi/admin/merchant/adjust",
               {"merchant_id": DEMO_MERCHANT, "amount_fen": 1_000_000_000, "remark": "chaos run"})


def show_logs():
    """The servers' last lines, before `down` removes them with the folder: what a failed run
    (in CI, say) has to go on."""
    try:
        with open(ENV["BACKOFFICE_CLUSTER_POINTER"]) as pointer:
            folder = pointer.read().strip()
    except OSError:
        return
    for name in ("api1.log", "api2.log"):
        try:
            with open(os.path.join(folder, name), errors="replace") as log:
                lines = log.readlines()[-25:]
        except OSError:
            continue
        print(f"--- the last lines of {name}:\n{''.join(lines)}", flush=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=90.0, help="how long the clients place orders")
    parser.add_argument("--clients", type=int, default=16, help="half console, half open API")
    parser.add_argument("--binary", default=os.environ.get("BACKOFFICE_BIN", os.path.join(ROOT, "target/release/backoffice")))
    parser.add_argument("--keep", action="store_true", help="leave the cluster up afterwards")
    args = parser.parse_args()
    started = time.monotonic()
    simulators, failed = {}, 1
    try:
        facts = up(args.binary)
        base = facts["API"]
        print(f"cluster up in {time.monotonic() - started:.1f} s: API={base} DATABASE_URL={facts['DATABASE_URL']}",
              flush=True)
        simulators = start_simulators(args.binary, facts["DIR"])
        receiver = Receiver()
        prepare(base, simulators, receiver.url)
        checks = Checks(facts["DATABASE_URL"])
        watch = Watch(facts["DIR"])
        record, stop = Record(), threading.Event()
        credentials = {"session": Session(base, "merchant", "Merchant123"), "open": (facts["KEY_ID"], facts["SECRET"])}
        clients = [Client(n, "console" if n % 2 == 0 else "open", base, record, stop, credentials, PRODUCT, 0.05)
                   for n in range(args.clients)]
        load_start = time.monotonic()
        for client in clients:
            client.start()
        print(f"{args.clients} clients placing orders for {args.seconds:.0f} s", flush=True)
        kills = []
        time.sleep(args.seconds * 0.2)
        kills.append(watch.kill_primary(lambda *a: cluster(*a), record))
        # The server is killed once the platform places orders again after the first kill.
        watch.wait_for_success_after(record, kills[-1]["at"], limit=60)
        time.sleep(max(3.0, args.seconds * 0.55 - (time.monotonic() - load_start)))
        kills.append(watch.kill_server(lambda *a: cluster(*a), record))
        time.sleep(max(3.0, args.seconds - (time.monotonic() - load_start)))
        stop.set()
        for client in clients:
            client.join()
        print(f"load stopped after {time.monotonic() - load_start:.0f} s; waiting for every order to finish",
              flush=True)
        for kill in kills:
            kill.update(outage_figures(record, kill["at"]))
        failed = checks.run(record, simulators, receiver, kills)
        print(f"chaos run {'FAILED' if failed else 'passed'} in {time.monotonic() - started:.0f} s", flush=True)
        return 1 if failed else 0
    finally:
        for simulator in simulators.values():
            simulator["process"].terminate()
        if failed:
            show_logs()
        if args.keep:
            print(f"the cluster stays up (BACKOFFICE_CLUSTER_POINTER={ENV['BACKOFFICE_CLUSTER_POINTER']} "
                  "scripts/cluster.sh down removes it)")
        else:
            cluster("down")


if __name__ == "__main__":
    sys.exit(main())

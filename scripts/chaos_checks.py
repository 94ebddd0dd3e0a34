"""What the chaos run (scripts/chaos.py) checks once the load stopped: it waits for every
order to finish and every callback to arrive, then compares what the clients were answered,
the database, the supplier simulators' books, the account log and the callback receiver.
Prints the figures; `run` answers the number of checks that failed.
"""
import subprocess
import time

from chaos_watch import simulator_book

# The run's orders: the console's carry their key in the remark, the open API's it as the
# merchant order id.
RUN_ORDERS = "(o.merchant_order_id LIKE 'CHAOS-%' OR o.remark LIKE 'CHAOS-%')"
OUTAGE_LIMIT_S = 30.0


class Checks:
    def __init__(self, database_url):
        self.database_url = database_url
        self.failures = []

    def sql(self, statement):
        for _ in range(10):  # the database proxy may still be settling after the failover
            result = subprocess.run(["psql", self.database_url, "-At", "-F", "\t", "-c", statement],
                                    capture_output=True, text=True)
            if result.returncode == 0:
                return [line.split("\t") for line in result.stdout.splitlines() if line]
            time.sleep(1)
        raise SystemExit(f"psql failed: {result.stderr}")

    def check(self, ok, what):
        print(f"  {'ok  ' if ok else 'FAIL'} {what}", flush=True)
        if not ok:
            self.failures.append(what)

    def wait_until(self, what, condition, limit):
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            left = condition()
            if not left:
                return 0
            time.sleep(1)
        return left

    def run(self, record, simulators, receiver, kills):
        for kill in kills:
            kill["thread"].join(timeout=60)
        unfinished = self.wait_until("orders", lambda: int(self.sql(
            f"SELECT COUNT(*) FROM orders o WHERE {RUN_ORDERS} AND o.status NOT IN (2, 3)")[0][0]), 300)
        orders = {row[0]: {"order_no": row[1], "status": int(row[2]), "price": int(row[3]), "mid": row[4]}
                  for row in self.sql(f"SELECT CASE WHEN o.merchant_order_id LIKE 'CHAOS-%' THEN o.merchant_order_id "
                                      f"ELSE o.remark END, o.order_no, o.status, o.price_fen, o.merchant_id "
                                      f"FROM orders o WHERE {RUN_ORDERS}")}
        by_no = {order["order_no"]: key for key, order in orders.items()}
        finished = {order["order_no"] for order in orders.values() if order["status"] in (2, 3)}
        missing_callbacks = self.wait_until(
            "callbacks", lambda: len(finished - set(receiver.finished_by_order())), 180)
        self.figures(record, orders, kills, receiver)
        print("checks:", flush=True)
        self.check(unfinished == 0, f"every order finished ({unfinished} still open after 300 s)")
        self.check_calls(record, orders)
        self.check_suppliers(simulators, orders, by_no)
        self.check_ledger(orders)
        for kill in kills:
            again, first = kill.get("placed_again_s"), kill.get("first_order_s")
            self.check(again is not None and again <= OUTAGE_LIMIT_S and first is not None and first <= OUTAGE_LIMIT_S,
                       f"orders placed again within {OUTAGE_LIMIT_S:.0f} s of killing the {kill['what']}")
        callbacks = receiver.finished_by_order()
        twice = sum(1 for order_no in finished if len(callbacks.get(order_no, ())) > 1)
        self.check(missing_callbacks == 0, f"every finished order's callback delivered ({missing_callbacks} missing)")
        self.check(twice == 0, f"one order.finished notification per order ({twice} orders had more)")
        return len(self.failures)

    def check_calls(self, record, orders):
        acknowledged = [call for call in record.calls if call["order_no"]]
        unanswered = [call for call in record.calls if not call["order_no"] and "refused" not in call]
        refused = [call for call in record.calls if "refused" in call]
        wrong = [call["key"] for call in acknowledged if orders.get(call["key"], {}).get("order_no") != call["order_no"]]
        keys = {call["key"] for call in record.calls}
        extra = [key for key in orders if key not in keys]
        placed_unacknowledged = [call["key"] for call in unanswered + refused if call["key"] in orders]
        self.check(not unanswered, f"every call answered in the end ({len(unanswered)} given up)")
        self.check(not refused, f"no call refused ({len(refused)}: {[call['refused'] for call in refused[:3]]})")
        self.check(not wrong, f"every acknowledged order exists once, as answered ({len(wrong)} not: {wrong[:3]})")
        self.check(not extra and not placed_unacknowledged,
                   f"no order placed that no call was answered with ({len(extra) + len(placed_unacknowledged)})")
        duplicated = self.duplicated()
        self.check(duplicated == 0, f"no call's order placed twice ({duplicated} keys with more than one order)")

    def duplicated(self):
        """Keys with more than one order (the open API's merchant order ids are unique by
        the table's constraint; a console call's key is its order's remark)."""
        return int(self.sql("SELECT COUNT(*) FROM (SELECT o.remark FROM orders o WHERE o.remark LIKE 'CHAOS-%' "
                            "GROUP BY o.merchant_id, o.remark HAVING COUNT(*) > 1) AS twice")[0][0])

    def check_suppliers(self, simulators, orders, by_no):
        # Every order's attempts: the demo's own orders still under way when the run began
        # may be handed to the run's simulators too.
        attempts = dict(self.sql("SELECT a.upstream_order_id, o.order_no FROM order_attempts a "
                                 "JOIN orders o ON o.id = a.order_id"))
        lines = []
        for code, simulator in simulators.items():
            book = simulator_book(simulator)
            self.check(book is not None, f"the {code} simulator's book is read")
            lines += [dict(line, code=code) for line in book or []]
        resubmitted = [line["upstream_order_id"] for line in lines if line["submissions"] != 1]
        unknown = [line["upstream_order_id"] for line in lines if line["upstream_order_id"] not in attempts]
        others = sum(1 for line in lines if attempts.get(line["upstream_order_id"]) not in by_no)
        successes = {}
        for line in lines:
            if line["succeeds"] and line["upstream_order_id"] in attempts:
                successes.setdefault(attempts[line["upstream_order_id"]], []).append(line["upstream_order_id"])
        twice = [order_no for order_no, ids in successes.items() if len(ids) > 1]
        disagree = [key for key, order in orders.items()
                    if (order["status"] == 2) != (len(successes.get(order["order_no"], ())) == 1)]
        print(f"  suppliers: {len(lines)} upstream orders handed over ({others} of orders not the run's), "
              f"{sum(len(v) for v in successes.values())} topped up", flush=True)
        self.check(not resubmitted, f"no upstream order submitted twice ({len(resubmitted)}: {resubmitted[:3]})")
        self.check(not unknown, f"every upstream order is an attempt the platform recorded ({len(unknown)} not: "
                                f"{unknown[:3]})")
        self.check(not twice, f"no order topped up twice ({len(twice)}: {twice[:3]})")
        self.check(not disagree, f"each order's result is its supplier's ({len(disagree)} differ: {disagree[:3]})")

    def check_ledger(self, orders):
        moves = {}
        for order_no, change_type, amount, rows in self.sql(
                f"SELECT l.order_no, l.change_type, SUM(l.amount_fen), COUNT(*) FROM account_log l "
                f"JOIN orders o ON o.order_no = l.order_no WHERE {RUN_ORDERS} GROUP BY l.order_no, l.change_type"):
            moves[(order_no, int(change_type))] = int(amount)
        charged_wrong = [o["order_no"] for o in orders.values() if moves.get((o["order_no"], 1), 0) != -o["price"]]
        refunded_wrong = [o["order_no"] for o in orders.values()
                          if moves.get((o["order_no"], 2), 0) != (o["price"] if o["status"] == 3 else 0)]
        self.check(not charged_wrong, f"every order charged once, its price ({len(charged_wrong)} not)")
        self.check(not refunded_wrong, f"every failed order refunded once, no other ({len(refunded_wrong)} not)")
        for mid in sorted({order["mid"] for order in orders.values()}):
            balance, available = self.sql(
                f"SELECT a.balance_fen, a.credit_limit_fen - a.credit_used_fen FROM merchant_accounts a "
                f"WHERE a.merchant_id = {int(mid)}")[0]
            logged = dict(self.sql(f"SELECT account_type, CAST(SUM(amount_fen) AS BIGINT) FROM account_log "
                                   f"WHERE merchant_id = {int(mid)} GROUP BY account_type"))
            self.check(logged.get("1", "0") == balance and logged.get("2", "0") == available,
                       f"merchant {mid}'s account log sums to its balance {balance} and credit {available} "
                       f"(log: {logged.get('1')}, {logged.get('2')})")

    def figures(self, record, orders, kills, receiver):
        calls = record.calls
        acknowledged = sum(1 for call in calls if call["order_no"])
        retried = sum(1 for call in calls if call["attempts"] > 1)
        statuses = {}
        for order in orders.values():
            statuses[order["status"]] = statuses.get(order["status"], 0) + 1
        keys = {call["key"] for call in calls if call["order_no"]}
        lost = sum(1 for key in keys if key not in orders)
        print("figures:", flush=True)
        print(f"  calls {len(calls)} (console {sum(c['kind'] == 'console' for c in calls)}, open API "
              f"{sum(c['kind'] == 'open' for c in calls)}), retried {retried}, attempts "
              f"{sum(c['attempts'] for c in calls)}", flush=True)
        print(f"  orders acknowledged {acknowledged}, in the database {len(orders)}, lost {lost}, "
              f"duplicated {self.duplicated()}; "
              f"succeeded {statuses.get(2, 0)}, failed {statuses.get(3, 0)}", flush=True)
        print(f"  callbacks received {receiver.deliveries} (distinct webhook-ids {len(receiver.events)})", flush=True)
        answers = {}
        for call in calls:
            for status, code in call["answers"][:-1] if call["order_no"] else call["answers"]:
                answers[f"{status} {code}"] = answers.get(f"{status} {code}", 0) + 1
        print(f"  failed attempts by answer: {answers}", flush=True)
        for kill in kills:
            def seconds(name):
                value = kill.get(name)
                return "–" if value is None else f"{value:.1f} s"
            print(f"  kill {kill['what']}: standby promoted {seconds('promoted_s')}, proxy switched "
                  f"{seconds('proxy_switched_s')}, first order of a call sent after it {seconds('first_order_s')}, "
                  f"longest without an order {seconds('without_orders_s')} (orders placed again "
                  f"{seconds('placed_again_s')} after the kill)", flush=True)

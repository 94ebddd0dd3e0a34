#!/usr/bin/env python3
"""bench/load.sh's table, and issue 13's targets checked as written and at the issue's scale.

usage: load_targets.py ENGINE RESULTS REFERENCE_BEFORE REFERENCE_AFTER

RESULTS holds one line per call: "NAME rate p50_ms p99_ms errors", the server's own static
page first. "vs static" is a call's rate over that page's rate on the same server (issue
13's userInfo target: the cost of checking a session against serving a file). The targets
given as rates and times are also checked at the issue's machine's scale
(bench/issue_scale.py), the reference measured right before and right after the calls.
"""
import sys

import issue_scale
from issue_scale import yes

STATIC_ONE_CLIENT = "GET /web/ (static), 1 client"

# (call's name as load.sh prints it, figure, SQLite target, PostgreSQL target, kind); a None
# target does not apply to that engine. kind: "rate" at least, "p99" at most (ms), "share" of
# the same server's static page, at least.
TARGETS = [
    ("POST userInfo", "userInfo, 64 clients, vs static", 0.60, 0.60, "share"),
    ("POST order/list first page + total", "list first page + total, 64 clients", 6000, None, "rate"),
    # The console is a browser, which asks for br and gzip: the same page, compressed.
    ("POST order/list + total, asking br/gzip", "  the same, as a browser asks (br/gzip)", 6000, None, "rate"),
    ("POST order/list first page, 1 client", "list first page, 1 client, p99", 1.0, None, "p99"),
    ("POST order/add, 64 clients", "order add, 64 clients", 10_000, 5_000, "rate"),
    ("POST order/add, 1 client", "order add, 1 client", 2_000, None, "rate"),
]


def main():
    engine, path = sys.argv[1], sys.argv[2]
    before, after = float(sys.argv[3]), float(sys.argv[4])
    rows = {}
    order = []
    for line in open(path).read().splitlines():
        name, rate, p50, p99, errors = line.rsplit(" ", 4)
        rows[name] = (float(rate), float(p50), float(p99), int(errors))
        order.append(name)
    static = rows[order[0]][0]
    print(f"{'call':40} {'requests/s':>11} {'p50 ms':>8} {'p99 ms':>8} {'errors':>7} {'vs static':>10}")
    for name in order:
        rate, p50, p99, errors = rows[name]
        print(f"{name:40} {int(rate):>11,} {p50:>8.2f} {p99:>8.2f} {errors:>7} {rate / static:>10.3f}")

    scale = issue_scale.scale(before, after)
    print(issue_scale.describe(f"targets on {engine}", before, after, "the calls"))
    print(f"{'figure':40} {'measured':>10} {'target':>10} {'met':>4} {'at issue scale':>15} {'met':>4}")
    column = 2 if engine == "sqlite" else 3
    missed = [0, 0]
    for name, label, *rest in TARGETS:
        target, kind = rest[column - 2], rest[2]
        if target is None:
            continue
        if name not in rows:
            print(f"{label:40} {'not measured':>10}")
            continue
        rate, _, p99, _ = rows[name]
        if kind == "share":
            value, scaled = rate / static, rate / static
            met, met_scaled = value >= target, scaled >= target
            shown = (f"{value:.3f}", f"≥ {target:.2f}", f"{scaled:.3f}")
        elif kind == "rate":
            value, scaled = rate, rate / scale
            met, met_scaled = value >= target, scaled >= target
            shown = (f"{value:,.0f}/s", f"≥ {target:,}/s", f"{scaled:,.0f}/s")
        else:
            value, scaled = p99, p99 * scale
            met, met_scaled = value <= target, scaled <= target
            shown = (f"{value:.2f} ms", f"≤ {target:.0f} ms", f"{scaled:.2f} ms")
        missed[0] += not met
        missed[1] += not met_scaled
        print(f"{label:40} {shown[0]:>10} {shown[1]:>10} {yes(met):>4} {shown[2]:>15} {yes(met_scaled):>4}")
        if kind == "p99" and STATIC_ONE_CLIENT in rows:
            # One client's p99 is mostly the machine's own tail (wake-ups on a shared virtual
            # machine): the static page's, beside it, shows how much.
            static_p99 = rows[STATIC_ONE_CLIENT][2]
            print(f"{'  the static page, 1 client, p99':40} {static_p99:>7.2f} ms {'':>10} {'':>4} {static_p99 * scale:>12.2f} ms")
    print(f"missed as written: {missed[0]}; missed at the issue's scale: {missed[1]}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Checks bench/orders.sh's figures against the issues' targets, as written and as ratios.

usage: orders_targets.py ENGINE FIGURES_JSON STATIC_BEFORE STATIC_AFTER [COUNT]

Issue 4 set the targets on SQLite; issue 13 tightened them for a durable PostgreSQL and
reads every target as a ratio in one run: each figure is also shown at the issue's machine's
scale (bench/issue_scale.py), the reference measured right before and right after the
figures. Memory and the books are not scaled.
"""
import json
import sys

import issue_scale
from issue_scale import yes

# (key, label, unit, kind, SQLite target, PostgreSQL target); kind: "max" a time below its
# target, "min" a rate at least its target, "mem" megabytes below (not scaled).
TARGETS = [
    ("list_first_p99_ms", "list first page, no filter, p99", "ms", "max", 5, 3),
    ("list_first_filtered_p99_ms", "list first page, filtered, p99", "ms", "max", 5, 3),
    ("list_deep_p99_ms", "list 10,000 rows deep, no filter, p99", "ms", "max", 5, 3),
    ("list_deep_filtered_p99_ms", "list 10,000 rows deep, filtered, p99", "ms", "max", 5, 3),
    ("export_s", "export of 1,000,000 rows", "s", "max", 5, 4),
    ("export_peak_mb", "export: server memory at its peak", "MB", "mem", 150, 150),
    ("batch_s", "batch of 100,000 lines, preview + submit", "s", "max", 5, 3),
    ("one_by_one_per_s", "orders one by one, one client", "/s", "min", 1500, 1500),
]


def main():
    engine, path, before, after = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
    count = int(sys.argv[5]) if len(sys.argv) > 5 else 1_000_000
    figures = json.load(open(path))
    scale = issue_scale.scale(before, after)
    column = 1 if engine == "sqlite" else 2
    print(issue_scale.describe(f"targets on {engine}", before, after, "the figures"))
    if count != 1_000_000:
        print(f"the targets are for 1,000,000 generated orders; this run generated {count:,}")
    print(f"{'figure':44} {'measured':>11} {'target':>9} {'met':>4} {'at issue scale':>15} {'met':>4}")
    missed_absolute = missed_scaled = 0
    for key, label, unit, kind, *targets in TARGETS:
        target = targets[column - 1]
        if key not in figures:
            print(f"{label:44} {'not measured':>11}")
            continue
        value = figures[key]
        if kind == "max":
            scaled, met, met_scaled = value * scale, value < target, value * scale < target
            sign = "<"
        elif kind == "min":
            scaled, met, met_scaled = value / scale, value >= target, value / scale >= target
            sign = "≥"
        else:
            scaled, met, met_scaled = value, value < target, value < target
            sign = "<"
        missed_absolute += not met
        missed_scaled += not met_scaled
        print(
            f"{label:44} {number(value) + ' ' + unit:>11} {sign + ' ' + f'{target:,}' + ' ' + unit:>9} "
            f"{yes(met):>4} {number(scaled) + ' ' + unit:>15} {yes(met_scaled):>4}"
        )
    if "books_equal" in figures:
        books = figures["books_equal"]
        missed_absolute += not books
        missed_scaled += not books
        print(f"{'account log sums to the balance':44} {'equal' if books else 'DIFFERENT':>11} {'equal':>9} {yes(books):>4}")
    print(f"missed as written: {missed_absolute}; missed at the issue's scale: {missed_scaled}")


def number(value):
    return f"{value:,.0f}" if abs(value) >= 100 else f"{value:.2f}"


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""bench/console.sh's two times at the issue's machine's scale (bench/issue_scale.py).

usage: console_targets.py FIGURES REFERENCE_BEFORE REFERENCE_AFTER
FIGURES is console-speed.mjs's output, whose last line is its JSON (the last entry: this
build's figures).
"""
import json
import sys

from issue_scale import describe, scale, yes

TARGETS = [
    ("formPaintedMs", "navigation -> login form painted", 120),
    ("loginToWorkplaceMs", "sign-in click -> workplace painted", 250),
]


def main():
    result = json.loads(open(sys.argv[1]).read().splitlines()[-1])[-1]
    before, after = float(sys.argv[2]), float(sys.argv[3])
    print(describe("at the issue's scale", before, after, "the runs"))
    for key, label, target in TARGETS:
        scaled = result[key] * scale(before, after)
        print(f"  {label + ':':40}{scaled:.0f} ms   target <= {target} ms, met: {yes(scaled <= target)}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Prints TCP ports on 127.0.0.1 that are free now, one a line, for servers a script or test
starts next: `free-port.py` one, `free-port.py N` N different ones.

Not ones the kernel hands out for port 0: those come from the ephemeral range, the range every
outgoing connection takes its local port from, so between this check and the server's bind a
connection could take it ("Address already in use", seen once in the browser tests on
2026-11-28). Below that range (Linux's default starts at 32768) only listeners compete, so a
random port there that binds now stays free for the server. The probes stay bound until all N
are found, so the N ports differ.
"""
import random
import socket
import sys

count = int(sys.argv[1]) if len(sys.argv) > 1 else 1
probes = []
try:
    for port in random.sample(range(20000, 32000), 200):
        probe = socket.socket()
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            probe.close()
            continue
        probes.append(probe)
        if len(probes) == count:
            print("\n".join(str(held.getsockname()[1]) for held in probes))
            sys.exit(0)
finally:
    for probe in probes:
        probe.close()
sys.exit(f"no {count} free ports between 20000 and 32000")

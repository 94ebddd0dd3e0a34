#!/usr/bin/env python3
"""Prints a TCP port on 127.0.0.1 that is free now, for a server a script or test starts next.

Not one the kernel hands out for port 0: those come from the ephemeral range, the range every
outgoing connection takes its local port from, so between this check and the server's bind a
connection could take it ("Address already in use", seen once in the browser tests on
2026-11-28). Below that range (Linux's default starts at 32768) only listeners compete, so a
random port there that binds now stays free for the server.
"""
import random
import socket
import sys

for port in random.sample(range(20000, 32000), 200):
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            continue
    print(port)
    sys.exit(0)
sys.exit("no free port between 20000 and 32000")

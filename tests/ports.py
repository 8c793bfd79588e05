"""Ports for the servers tests start (a PostgreSQL, a bot's web board) that nothing else takes
between the choice and the bind.

A port the kernel hands out for ``bind(0)`` comes from the ephemeral range, from which it also
picks the local port of every outgoing connection: with four test processes opening
connections all the time, one of them took a web board's port between probe and start
(``address already in use``). So the ports come from below that range, where no outgoing
connection lands, and each xdist worker draws from its own slice, so that two processes
never choose the same one.
"""

from __future__ import annotations

import os
import random
import socket
from pathlib import Path

#: The lowest port tests use, and the width of each worker's slice.
FIRST_PORT = 20_000
SLICE = 1_500
#: Linux's default ephemeral range starts here (read from /proc where it can be).
DEFAULT_EPHEMERAL_START = 32_768


def _ephemeral_start() -> int:
    try:
        text = Path("/proc/sys/net/ipv4/ip_local_port_range").read_text()
        return int(text.split()[0])
    except (OSError, ValueError, IndexError):
        return DEFAULT_EPHEMERAL_START


def _worker_index() -> int:
    """0 for gw0 (or a run without xdist), 1 for gw1, ..."""
    name = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    digits = name.removeprefix("gw")
    return int(digits) if digits.isdigit() else 0


def worker_ports() -> range:
    """This test process's slice of ports, below the ephemeral range."""
    ceiling = _ephemeral_start()
    slices = max(1, (ceiling - FIRST_PORT) // SLICE)
    start = FIRST_PORT + (_worker_index() % slices) * SLICE
    return range(start, min(start + SLICE, ceiling))


def free_port() -> int:
    """A port of this process's slice that nothing listens on now."""
    ports = list(worker_ports())
    random.shuffle(ports)
    for port in ports:
        with socket.socket() as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port in {ports[0]}..{ports[-1]}")

"""The ports test servers listen on: outside the range outgoing connections use, and never the
same for two test processes (tests/ports.py)."""

from __future__ import annotations

import socket

from tests import ports


def test_each_worker_has_its_own_slice_below_the_ephemeral_range(monkeypatch):
    slices = []
    for worker in ("gw0", "gw1", "gw2", "gw3", "gw7"):
        monkeypatch.setenv("PYTEST_XDIST_WORKER", worker)
        slices.append(set(ports.worker_ports()))
    assert all(slices)
    assert all(max(s) < ports._ephemeral_start() for s in slices)
    for i, one in enumerate(slices):
        for other in slices[i + 1:]:
            assert not one & other


def test_a_port_something_listens_on_is_not_chosen(monkeypatch):
    # Two ports below every worker's slice, so that no other test process is disturbed.
    monkeypatch.setattr(ports, "worker_ports", lambda: range(ports.FIRST_PORT - 2,
                                                             ports.FIRST_PORT))
    first = ports.free_port()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", first))
        taken.listen()
        assert ports.free_port() != first

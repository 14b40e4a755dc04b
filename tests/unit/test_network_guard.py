"""The network guard of tests/conftest.py: loopback goes through, anything
else raises and is recorded (the fixture then fails the test)."""

from __future__ import annotations

import socket
from typing import Any

import pytest


def _connect() -> None:
    with socket.socket() as sock:
        sock.connect(("198.51.100.7", 80))


def _connect_ex() -> None:
    with socket.socket() as sock:
        sock.connect_ex(("203.0.113.9", 80))


@pytest.mark.parametrize(
    "attempt",
    [
        lambda: socket.getaddrinfo("example.com", 443),
        lambda: socket.create_connection(("192.0.2.1", 443), timeout=0.1),
        _connect,
        _connect_ex,
    ],
    ids=["getaddrinfo", "create_connection", "connect", "connect_ex"],
)
def test_anything_but_loopback_is_refused_and_recorded(
    attempt: Any, no_network: list[Any]
) -> None:
    with pytest.raises(OSError, match="network access attempted"):
        attempt()
    assert len(no_network) == 1
    no_network.clear()  # recorded as it should be: let this test pass


def test_loopback_goes_through(no_network: list[Any]) -> None:
    server = socket.create_server(("127.0.0.1", 0))
    try:
        port = server.getsockname()[1]
        with socket.create_connection(("127.0.0.1", port), timeout=5):
            pass
        assert socket.getaddrinfo("localhost", port)
    finally:
        server.close()
    assert no_network == []

"""What every test gets without asking: no network, the long runs gated, one
Hypothesis profile.

- **No network.**  An autouse fixture (``no_network``) makes any connection
  or DNS lookup to anything but loopback fail the test: ``toolstream serve``
  binds to 127.0.0.1 and the client tests reach it there, nothing else is
  reachable.  A library that quietly phones home (``import litellm`` fetches
  a price list) is caught here, not on a machine without a network.
- **Long runs.**  Tests marked ``slow`` skip unless ``TOOLSTREAM_LONG=1`` is
  set or the marker is selected (``-m slow``).
- **Hypothesis profiles.**  ``TOOLSTREAM_HYPOTHESIS_PROFILE`` picks one of
  :data:`PROFILES` (default: ``ci`` when ``CI`` is set, as on CI, else
  ``default``).  A test's own ``@settings`` still sets its example count;
  the profile holds what every property shares.

See tests/README.md for the tiers and how to run each.
"""

from __future__ import annotations

import ipaddress
import os
import socket
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

# The HTTP stacks the client libraries share, imported whole before any test:
# a library that imports one lazily (langchain-mistralai imports httpx on its
# first request) can otherwise be interrupted by the garbage collector
# finalizing an earlier test's unclosed SDK stream, whose close then meets a
# half-imported module (a circular-import error, raised as an unraisable
# exception that fails whichever test happens to be running).
for _stack in ("httpx", "httpx2"):
    try:
        __import__(_stack)
    except ImportError:  # not installed: no library here uses it
        pass

# -- Hypothesis settings profiles ------------------------------------------------------

PROFILE_ENV = "TOOLSTREAM_HYPOTHESIS_PROFILE"

PROFILES = {
    "default": "no deadline, no example database, the slow-data health checks off",
    "ci": "default, derandomized: every run draws the same examples (a red build reproduces)",
    "dev": "default with Hypothesis' example database on: a failure is replayed first next run",
}
"""The profiles ``TOOLSTREAM_HYPOTHESIS_PROFILE`` can name, and what each is for."""

_HYPOTHESIS_DATABASE = settings.get_profile("default").database
"""Hypothesis' own example database (``.hypothesis/``), for the ``dev`` profile."""

# Timings belong to benchmarks (bench/), not to properties: on a loaded
# machine a deadline fails a correct test.  The suppressed health checks are
# the ones the turn and stream strategies trip by design (large nested
# fixtures, filtered draws); each property still sets its own max_examples.
settings.register_profile(
    "default",
    deadline=None,
    database=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.filter_too_much,
        HealthCheck.large_base_example,
    ],
)
settings.register_profile("ci", settings.get_profile("default"), derandomize=True, print_blob=True)
settings.register_profile("dev", settings.get_profile("default"), database=_HYPOTHESIS_DATABASE)


def pytest_configure(config: pytest.Config) -> None:
    # Before collection: the test modules' own @settings build on the profile.
    # CI (which sets CI=true) draws the same examples every run: a red build
    # reproduces, and a green one is not a lucky draw.
    name = os.environ.get(PROFILE_ENV) or ("ci" if os.environ.get("CI") else "default")
    if name not in PROFILES:
        raise pytest.UsageError(
            f"{PROFILE_ENV}={name!r}: not a profile (choose from {', '.join(PROFILES)})"
        )
    settings.load_profile(name)


# -- long runs ----------------------------------------------------------------------------

LONG_ENV = "TOOLSTREAM_LONG"


def long_runs_enabled(config: pytest.Config) -> bool:
    """``TOOLSTREAM_LONG=1``, or ``-m`` names the ``slow`` marker."""
    return os.environ.get(LONG_ENV) == "1" or "slow" in (config.getoption("markexpr") or "")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if long_runs_enabled(config):
        return
    skip = pytest.mark.skip(reason=f"long run: set {LONG_ENV}=1 or select -m slow")
    for item in items:
        if item.get_closest_marker("slow") is not None:
            item.add_marker(skip)


# -- no network ------------------------------------------------------------------------

LOCAL_NAMES = frozenset({"localhost"})
"""Host names a test may reach besides loopback addresses."""

BIND_HOSTS = frozenset({None, "", "0.0.0.0", "::"})
"""What a server looks up to bind (``getaddrinfo(None, port)``): no network
traffic, so allowed to ``getaddrinfo``, never to a connect."""


def _is_loopback(host: Any) -> bool:
    if isinstance(host, bytes):
        host = host.decode("ascii", "replace")
    if not isinstance(host, str):
        return False
    if host in LOCAL_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.split("%", 1)[0]).is_loopback
    except ValueError:
        return False


def _target(args: tuple[Any, ...]) -> tuple[socket.socket | None, Any]:
    """The socket (for connect/connect_ex) and the address a call names."""
    if args and isinstance(args[0], socket.socket):
        return args[0], args[1] if len(args) > 1 else None
    return None, args[0] if args else None


def _allowed(name: str, args: tuple[Any, ...]) -> bool:
    sock, address = _target(args)
    if sock is not None and sock.family == getattr(socket, "AF_UNIX", None):
        return True  # a local socket file, not the network
    host = address[0] if isinstance(address, tuple) and address else address
    if name == "getaddrinfo" and host in BIND_HOSTS:
        return True
    return _is_loopback(host)


@pytest.fixture(autouse=True)
def no_network(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Any]]:
    """Any connection or DNS lookup beyond loopback raises ``OSError`` and
    fails the test (even when the code under test swallows the error): the
    attempts are listed in the failure.  Yields that list."""
    attempts: list[Any] = []

    def guard(name: str, original: Any) -> Any:
        def refuse(*args: Any, **kwargs: Any) -> Any:
            if _allowed(name, args):
                return original(*args, **kwargs)
            address = _target(args)[1]
            attempts.append((name, address))
            raise OSError(f"toolstream tests: network access attempted ({name} {address!r})")

        return refuse

    for owner, name in (
        (socket.socket, "connect"),
        (socket.socket, "connect_ex"),
        (socket, "create_connection"),
        (socket, "getaddrinfo"),
    ):
        monkeypatch.setattr(owner, name, guard(name, getattr(owner, name)))
    yield attempts
    assert attempts == [], f"network access attempted: {attempts}"

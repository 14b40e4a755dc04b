"""A gateway the run starts itself: a command template, or a recipe.

``--gateway-command 'CMD {upstream}'``: ``{upstream}`` becomes the URL of the
``serve`` instance playing the cases; the command starts the user's gateway,
which prints its own base URL as the first line of its stdout.  The wait for
that line is bounded (``startup`` seconds); the process is stopped when the
run ends however it ends (an error, Ctrl-C): SIGTERM to its process group,
then SIGKILL after ``grace`` seconds.  Its stderr goes to the run's stderr;
its stdout after the first line is drained (a full pipe would block it).
"""

from __future__ import annotations

import contextlib
import os
import shlex
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from typing import IO, Final

__all__ = ["DEFAULT_STARTUP", "GRACE", "GatewayStartError", "started", "stop"]

DEFAULT_STARTUP: Final = 30.0
"""Seconds a gateway may take to print its URL."""

GRACE: Final = 5.0
"""Seconds between SIGTERM and SIGKILL."""


class GatewayStartError(Exception):
    """The gateway command did not start: it could not be run, exited, or
    printed no URL in time."""


def expand(template: str, upstream: str) -> list[str]:
    """The argv of a command template with ``{upstream}`` replaced."""
    if "{upstream}" not in template:
        raise GatewayStartError(
            "the gateway command has no {upstream} (where the provider URL goes)"
        )
    return [part.replace("{upstream}", upstream) for part in shlex.split(template)]


@contextlib.contextmanager
def started(
    argv: Sequence[str],
    *,
    startup: float = DEFAULT_STARTUP,
    url_line: bool = True,
    ready: object = None,
    env: Mapping[str, str] | None = None,
) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """Run ``argv`` and yield ``(process, first stdout line)`` once it printed
    it; stop the process on exit.  With ``url_line`` false, nothing is read
    from stdout and ``ready`` (a callable returning a URL or ``None``) is
    polled instead until ``startup`` seconds."""
    try:
        process = subprocess.Popen(
            list(argv),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=None,
            text=True,
            start_new_session=True,
            env=None if env is None else dict(env),
        )
    except OSError as error:
        raise GatewayStartError(f"cannot run {argv[0]!r}: {error.strerror or error}") from None
    try:
        assert process.stdout is not None
        if url_line:
            first = _first_line(process, process.stdout, startup)
        else:
            first = _poll(process, ready, startup)
        yield process, first
    finally:
        stop(process)


def _first_line(process: subprocess.Popen[str], stream: IO[str], startup: float) -> str:
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.append(stream.readline()), daemon=True)
    reader.start()
    reader.join(startup)
    if reader.is_alive() or not lines or not lines[0].strip():
        if lines and not lines[0]:  # end of stdout: the process is exiting
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(GRACE)
        code = process.poll()
        if code is not None:
            raise GatewayStartError(f"the gateway command exited ({code}) before printing its URL")
        raise GatewayStartError(f"the gateway command printed no URL within {startup:g}s")
    threading.Thread(target=_drain, args=(stream,), daemon=True).start()
    return lines[0].strip()


def _poll(process: subprocess.Popen[str], ready: object, startup: float) -> str:
    threading.Thread(target=_drain, args=(process.stdout,), daemon=True).start()
    deadline = time.monotonic() + startup
    while time.monotonic() < deadline:
        code = process.poll()
        if code is not None:
            raise GatewayStartError(f"the gateway exited ({code}) while starting")
        url = ready() if callable(ready) else None
        if isinstance(url, str):
            return url
        time.sleep(0.2)
    raise GatewayStartError(f"the gateway was not ready within {startup:g}s")


def _drain(stream: IO[str] | None) -> None:
    if stream is None:
        return
    with contextlib.suppress(OSError, ValueError):
        for _ in stream:
            pass


def stop(process: subprocess.Popen[str], grace: float = GRACE) -> None:
    """SIGTERM the process group, SIGKILL it after ``grace`` seconds."""
    if process.poll() is None:
        _signal(process, signal.SIGTERM)
        try:
            process.wait(grace)
        except subprocess.TimeoutExpired:
            _signal(process, signal.SIGKILL)
            process.wait(grace)
    else:
        # the leader is gone; its children (a shell's) may not be
        _signal(process, signal.SIGKILL)
    if process.stdout is not None:
        with contextlib.suppress(OSError):
            process.stdout.close()


def _signal(process: subprocess.Popen[str], signum: int) -> None:
    try:
        os.killpg(process.pid, signum)
    except (ProcessLookupError, PermissionError):
        with contextlib.suppress(ProcessLookupError):
            process.send_signal(signum)
    except OSError as error:  # pragma: no cover - reported, never raised from cleanup
        print(f"toolstream gateway-check: cannot signal the gateway: {error}", file=sys.stderr)

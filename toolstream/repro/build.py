"""``toolstream repro``: one case, one client (and transport), one script."""

from __future__ import annotations

from pathlib import Path
from typing import Final

from toolstream.repro import javascript, python
from toolstream.repro.payload import Judgement, ReproError, judge, payload

__all__ = ["CLIENTS", "ReproError", "build_script", "script_suffix", "split_client"]

CLIENTS: Final = {
    **dict.fromkeys(python.DRIVERS, ".py"),
    **dict.fromkeys(javascript.DRIVERS, ".mjs"),
}
"""Client -> the suffix of its script (``.py``: Python, ``.mjs``: node)."""


def script_suffix(client: str) -> str:
    return CLIENTS[client]


def split_client(spec: str) -> tuple[str, str]:
    """``NAME[@TRANSPORT]`` -> (name, transport), ``plain`` by default: the
    one parse of a ``--client`` value (:func:`toolstream.adapters.spec.parse_client`)."""
    from toolstream.adapters.spec import parse_client

    run = parse_client(spec)
    return run.name, run.transport


def build_script(case_path: str, spec: str, *, timeout: float = 30.0) -> tuple[str, Judgement]:
    """The reproducer's text for ``case_path`` and ``spec`` (NAME[@TRANSPORT]),
    and the diff's judgement it embeds.  Raises :class:`ReproError`."""
    from toolstream.caseio import load_case
    from toolstream.clients.transports import transport_problem

    client, transport = split_client(spec)
    problem = transport_problem(transport)
    if problem is not None:
        raise ReproError(problem)
    if client not in CLIENTS:
        raise ReproError(
            f"no reproducer for client {client!r}; clients with one: {', '.join(sorted(CLIENTS))}"
        )
    loaded = load_case(case_path)
    if loaded.case is None or not isinstance(loaded.case, dict):
        raise ReproError(f"{case_path}: {loaded.error or 'not a case object'}")
    if not Path(case_path).is_file():
        raise ReproError(f"{case_path}: not a case file")
    judged = judge(case_path, client, transport, timeout)
    data = payload(loaded.case, case_path, client, transport, judged)
    if CLIENTS[client] == ".py":
        return python.render_script(data), judged
    return javascript.render_script(data), judged

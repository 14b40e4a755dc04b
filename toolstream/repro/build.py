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
    """``NAME[@TRANSPORT]`` -> (name, transport), ``plain`` by default."""
    name, sep, transport = spec.partition("@")
    return name, (transport if sep and transport else "plain")


def build_script(case_path: str, spec: str, *, timeout: float = 30.0) -> tuple[str, Judgement]:
    """The reproducer's text for ``case_path`` and ``spec`` (NAME[@TRANSPORT]),
    and the diff's judgement it embeds.  Raises :class:`ReproError`."""
    from toolstream.caseio import load_case

    client, transport = split_client(spec)
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

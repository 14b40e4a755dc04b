"""``toolstream repro``: one case, one client (and transport), one script.

:data:`REPRODUCERS` is the one table of the clients that have a reproducer:
each names its language and its driver template (``templates/``, one file
per client, written the way ``toolstream/clients/<module>.py`` or
``toolstream/clients/js/drivers/*.mjs`` calls the library)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal

from toolstream.repro import javascript, python
from toolstream.repro.payload import Judgement, ReproError, judge, payload

__all__ = [
    "CLIENTS",
    "REPRODUCERS",
    "ReproError",
    "Reproducer",
    "build_script",
    "script_suffix",
    "split_client",
]


@dataclass(frozen=True)
class Reproducer:
    """A client's reproducer: the script's ``language`` and the ``driver``
    template that calls the library."""

    language: Literal["python", "javascript"]
    driver: str

    @property
    def suffix(self) -> str:
        return ".py" if self.language == "python" else ".mjs"

    def render(self, data: dict[str, Any]) -> str:
        """The script for ``data`` (:func:`toolstream.repro.payload.payload`)."""
        if self.language == "python":
            return python.render_script(data, self.driver)
        return javascript.render_script(data, self.driver)


def _py(client: str) -> Reproducer:
    return Reproducer("python", f"python_{client.replace('-', '_')}.py.tmpl")


def _js(client: str) -> Reproducer:
    return Reproducer("javascript", f"js_{client.replace('-', '_')}.mjs.tmpl")


REPRODUCERS: Final[dict[str, Reproducer]] = {
    "openai-chat-create": _py("openai-chat-create"),
    "openai-chat-stream": _py("openai-chat-stream"),
    "openai-responses-stream": _py("openai-responses-stream"),
    "anthropic-messages-stream": _py("anthropic-messages-stream"),
    "mistralai-chat-stream": _py("mistralai-chat-stream"),
    "boto3-converse-stream": _py("boto3-converse-stream"),
    "cohere-chat-stream": _py("cohere-chat-stream"),
    "openai-node-chat-create": _js("openai-node-chat-create"),
    "openai-node-chat-stream": _js("openai-node-chat-stream"),
    "anthropic-node-messages-stream": _js("anthropic-node-messages-stream"),
}
"""Client -> its reproducer (the client names of ``toolstream diff --list-clients``)."""

CLIENTS: Final = {client: item.suffix for client, item in REPRODUCERS.items()}
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
    if client not in REPRODUCERS:
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
    return REPRODUCERS[client].render(data), judged

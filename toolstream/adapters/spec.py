"""An adapter spec as a typed object: the one parse (:func:`parse_spec`) and
the one written form (:attr:`RunSpec.text`) of what ``--adapter``,
``--adapter-command`` and ``--client``/``--transport`` name.

A spec's text: a registry name or ``package.module:function`` (kind
``adapter``), ``cmd:COMMAND`` / ``lines:COMMAND`` (kinds ``cmd`` and
``lines``), ``client:NAME`` or ``client:NAME@TRANSPORT`` (kind ``client``;
``@plain`` is the default and is not written).

What ``--client`` takes (``diff``, ``shrink``, ``repro``) is the same text
without ``client:``: ``NAME`` or ``NAME@TRANSPORT``, parsed by
:func:`parse_client`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

__all__ = ["Kind", "RunSpec", "client_specs", "parse_client", "parse_spec"]

Kind = Literal["adapter", "cmd", "lines", "client"]


@dataclass(frozen=True)
class RunSpec:
    """What one column of a diff runs: ``kind``, ``name`` (the registry
    name, module path, command or client name) and, for a client, the
    ``transport`` it receives the case over."""

    kind: Kind
    name: str
    transport: str = "plain"

    @property
    def text(self) -> str:
        """The spec's one written form (see the module docstring)."""
        if self.kind == "client":
            suffix = "" if self.transport == "plain" else f"@{self.transport}"
            return f"client:{self.name}{suffix}"
        if self.kind in ("cmd", "lines"):
            return f"{self.kind}:{self.name}"
        return self.name

def parse_spec(text: str | RunSpec) -> RunSpec:
    """The one parse of a spec's text (a :class:`RunSpec` is returned as is)."""
    if isinstance(text, RunSpec):
        return text
    for kind in ("cmd", "lines"):
        if text.startswith(f"{kind}:"):
            return RunSpec(kind, text[len(kind) + 1 :])
    if text.startswith("client:"):
        name, _, transport = text[len("client:") :].partition("@")
        return RunSpec("client", name, transport or "plain")
    return RunSpec("adapter", text)


def parse_client(text: str) -> RunSpec:
    """A ``--client`` value, ``NAME`` or ``NAME@TRANSPORT``, as a client spec."""
    return parse_spec(f"client:{text}")


def client_specs(names: Iterable[str], transports: Iterable[str]) -> list[RunSpec]:
    """Every client x transport, each once, in the order given; a name
    written ``NAME@TRANSPORT`` runs under that transport only."""
    out: list[RunSpec] = []
    for name in dict.fromkeys(names):
        run = parse_client(name)
        if "@" in name:
            out.append(run)
        else:
            out.extend(RunSpec("client", run.name, t) for t in dict.fromkeys(transports))
    return list(dict.fromkeys(out))

"""Adapter registry: stable names -> adapter classes.

The names are part of the CLI contract (``toolstream diff --adapter NAME``):
add new ones, never rename.  Besides registry names, :func:`resolve_adapter`
takes ``cmd:PROGRAM ARGS...`` (a :class:`~toolstream.adapters.user.CommandAdapter`),
``lines:PROGRAM ARGS...`` (a :class:`~toolstream.adapters.user.PersistentCommandAdapter`),
``client:NAME[@TRANSPORT]`` (a client library driven over HTTP,
:mod:`toolstream.clients`) and ``package.module:function`` (a user callable).
"""

from __future__ import annotations

from collections.abc import Sequence

from .anthropic_python import AnthropicPythonAdapter
from .base import Adapter
from .langchain_core import LangChainCoreAdapter
from .litellm_adapter import LiteLLMAdapter
from .openai_python import OpenAIPythonAdapter
from .spec import parse_spec

__all__ = ["ADAPTERS", "adapter_names", "get_adapter", "resolve_adapter"]

ADAPTERS: dict[str, type[Adapter]] = {
    OpenAIPythonAdapter.name: OpenAIPythonAdapter,
    AnthropicPythonAdapter.name: AnthropicPythonAdapter,
    LangChainCoreAdapter.name: LangChainCoreAdapter,
    LiteLLMAdapter.name: LiteLLMAdapter,
}


def adapter_names() -> tuple[str, ...]:
    return tuple(ADAPTERS)


def get_adapter(name: str) -> Adapter:
    """A default-configured instance of the registered adapter ``name``."""
    try:
        cls = ADAPTERS[name]
    except KeyError:
        raise KeyError(f"unknown adapter {name!r}; known: {', '.join(ADAPTERS)}") from None
    return cls()


def resolve_adapter(
    spec: str,
    *,
    timeout: float = 30.0,
    profiles: Sequence[str] | None = None,
    reject_on: Sequence[str] = (),
) -> Adapter:
    """A registry name, ``cmd:COMMAND LINE`` (one process per case),
    ``lines:COMMAND LINE`` (one persistent process, a JSON line per case) or
    ``package.module:function``.  ``profiles`` and ``reject_on``
    (``module:Exception`` names) apply to user adapters only: a built-in
    adapter's profiles are what its library takes, and its refusals are the
    ones its module documents."""
    if spec in ADAPTERS:
        return get_adapter(spec)
    run = parse_spec(spec)
    if run.kind == "client":  # a client library over HTTP (toolstream.clients)
        from toolstream.clients.harness import ClientAdapter
        from toolstream.clients.registry import get_client

        return ClientAdapter(get_client(run.name), run.transport, timeout)
    from .user import (
        CommandAdapter,
        PersistentCommandAdapter,
        load_callable_adapter,
        load_exception,
    )

    if run.kind == "cmd":
        return CommandAdapter(run.name.strip(), timeout=timeout, profiles=profiles)
    if run.kind == "lines":
        return PersistentCommandAdapter(run.name.strip(), timeout=timeout, profiles=profiles)
    if ":" in spec:
        return load_callable_adapter(
            spec, profiles=profiles, reject_on=tuple(load_exception(e) for e in reject_on)
        )
    raise KeyError(
        f"unknown adapter {spec!r}; use one of {', '.join(ADAPTERS)}, "
        "'cmd:PROGRAM ARGS...', 'lines:PROGRAM ARGS...' or 'package.module:function'"
    )

"""Real client libraries, unmodified, driven over HTTP against ``toolstream serve``.

One module per library (the driver's docstring says which API it calls and
what counts as the library's own refusal), one table
(:data:`~toolstream.clients.registry.CLIENTS`).  A client runs in
``toolstream diff --client NAME [--transport plain,split,...]`` as an
adapter (:class:`~toolstream.clients.harness.ClientAdapter`), so it is
classified exactly as the in-process adapters are.  See ``docs/adapters.md``.

Importing this package imports no client library.
"""

from toolstream.clients.base import Client, StallTimeout, Target
from toolstream.clients.harness import (
    SERVER_ENV,
    ClientAdapter,
    client_adapter,
    served_id,
    serving,
)
from toolstream.clients.registry import CHEAP, CLIENTS, get_client
from toolstream.clients.transports import DEFAULT_TRANSPORTS, TRANSPORTS, serve_spec

__all__ = [
    "CHEAP",
    "CLIENTS",
    "DEFAULT_TRANSPORTS",
    "SERVER_ENV",
    "TRANSPORTS",
    "Client",
    "ClientAdapter",
    "StallTimeout",
    "Target",
    "client_adapter",
    "get_client",
    "serve_spec",
    "served_id",
    "serving",
]

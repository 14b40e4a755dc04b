"""``toolstream serve``: corpus cases played as a real provider over HTTP.

Point a client's base URL at a :class:`Server` and it receives a case's
stream exactly as the provider would send it: the provider's path, headers,
framing (SSE, binary AWS event-stream, or a streamed JSON array) and error shapes, cut into writes
as a transport variant says::

    with toolstream.serve.running("corpus/cases") as server:
        client = openai.OpenAI(base_url=server.url + "/v1", api_key="unused")
        client.chat.completions.create(model="case:truncate/0a1b...", stream=True, ...)
        server.requests("truncate/0a1b...")       # what the client sent

* :mod:`toolstream.serve.cases` -- reading cases, keeping every item as written;
* :mod:`toolstream.serve.endpoints` -- one module per wire format, one table;
* :mod:`toolstream.serve.transport` -- the transport variants and the plan of writes;
* :mod:`toolstream.serve.server` -- the HTTP server (``ThreadingHTTPServer``).

See ``docs/serve.md``.  Standard library only.
"""

from toolstream.serve.cases import CaseIndex, ServedCase, collect
from toolstream.serve.endpoints import ENDPOINTS, Endpoint, Problem
from toolstream.serve.server import (
    CASE_HEADER,
    TRANSPORT_HEADER,
    LoggedRequest,
    ServeLimits,
    Server,
    running,
)
from toolstream.serve.transport import Transport, TransportError, Variant, parse_transport

__all__ = [
    "CASE_HEADER",
    "ENDPOINTS",
    "TRANSPORT_HEADER",
    "CaseIndex",
    "Endpoint",
    "LoggedRequest",
    "Problem",
    "ServeLimits",
    "ServedCase",
    "Server",
    "Transport",
    "TransportError",
    "Variant",
    "collect",
    "parse_transport",
    "running",
]

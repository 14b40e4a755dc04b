"""The HTTP server: the standard library's ``ThreadingHTTPServer``, one thread
per connection, HTTP/1.1 with keep-alive.

Why this server (see ``docs/serve.md``): its handler writes straight to the
socket (``wbufsize = 0``), so each write of a :class:`~.transport.Plan` is
one ``send`` on a ``TCP_NODELAY`` socket (the status line and headers go with
the first write, the last chunk's terminator with the last, when nothing
waits between them); the handler decides the framing
itself (chunked or close-delimited), so a body can be cut anywhere, and it
can sleep between writes, so a stall is a real stall.

A request goes through, in order: the path prefixes (``/cases/<id>/``,
``/transport/<spec>/``), the route (which endpoint), the body (size, JSON),
the stream flag, the case (path prefix, ``X-Toolstream-Case``, the model,
or the only case), the case's endpoint, the transport; each step that fails
answers in the endpoint's own error shape.
"""

from __future__ import annotations

import collections
import contextlib
import hashlib
import http.server
import ipaddress
import json
import re
import socket
import socketserver
import threading
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, unquote, urlsplit

from toolstream import __version__
from toolstream.serve.cases import CaseIndex, ServedCase, collect
from toolstream.serve.endpoints import (
    ENDPOINTS,
    Endpoint,
    Problem,
    Record,
    Reply,
    Unplayable,
)
from toolstream.serve.endpoints._base import STATUS, json_reply
from toolstream.serve.transport import Plan, Transport, TransportError, parse_transport, plan

CASE_HEADER = "X-Toolstream-Case"
TRANSPORT_HEADER = "X-Toolstream-Transport"

SHORT_WAIT = 0.05
"""A wait up to this long is a plain sleep, the stop checked after it (the
pause between writes: half the CPU of an event wait); a longer one (a stall)
ends at once when the server stops."""

_CREDENTIAL_WORDS = ("authorization", "cookie", "api-key", "apikey", "token", "secret", "signature")


def request_id(case_id: str) -> str:
    """The request id a streamed reply carries: a function of the case, not
    a random one, because clients copy it into what they report (litellm's
    Bedrock route puts it in its error text) and a diff result must be the
    same bytes on every run."""
    return "req_" + hashlib.sha256(case_id.encode("utf-8")).hexdigest()[:24]


@dataclass(frozen=True)
class ServeLimits:
    """What bounds the server's resources."""

    max_body_bytes: int = 1 << 20
    """A larger request body gets 413 and the connection closes unread."""
    socket_timeout: float = 10.0
    """Seconds a read or a write may block (an idle keep-alive connection, a
    client that stops reading) before the connection is dropped."""
    max_connections: int = 256
    """Connections served at once; one more gets 503 and is closed."""
    log_entries: int = 10_000
    """Requests kept in the log (the oldest go first)."""
    cached_records: int = 10_000
    """Cases whose wire records are kept once built (the least recently
    played go first): a run that plays each case under several transports
    encodes its items once."""


def credential_header(name: str) -> bool:
    """Whether a request header carries a credential (never logged)."""
    lowered = name.lower()
    return any(word in lowered for word in _CREDENTIAL_WORDS)


@dataclass
class LoggedRequest:
    """One request as the server saw it (credential headers left out).
    Logged when the response starts, so a client that has its response can
    read the entry; ``outcome`` is settled when the response ends."""

    case: str | None
    method: str
    path: str
    headers: Mapping[str, str]
    body: Any
    """The parsed JSON body; the text when it is not JSON; None when empty."""
    status: int
    transport: str | None
    outcome: str
    """``started`` (still streaming), ``complete`` (set before the last
    chunk is written), ``cut`` (the transport cut the body), ``client
    gone``, ``stopped`` (the server stopped mid-stream) or ``error`` (an
    error response)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "case": self.case,
            "method": self.method,
            "path": self.path,
            "headers": dict(self.headers),
            "body": self.body,
            "status": self.status,
            "transport": self.transport,
            "outcome": self.outcome,
        }


class _HTTPServer(http.server.ThreadingHTTPServer):
    # Handler threads are joined on close (not daemons), so a stopped server
    # leaves no thread behind; their sockets are shut down first.
    daemon_threads = False
    block_on_close = True
    allow_reuse_address = True
    request_queue_size = 128

    def __init__(self, address: tuple[str, int], app: Server) -> None:
        self.app = app
        super().__init__(address, _Handler)

    def server_bind(self) -> None:
        # HTTPServer.server_bind calls getfqdn(), which may wait on DNS.
        socketserver.TCPServer.server_bind(self)
        host, port = self.server_address[:2]
        self.server_name = str(host)
        self.server_port = int(port)

    def process_request(self, request: Any, client_address: Any) -> None:
        if not self.app._admit(request):
            with contextlib.suppress(OSError):
                request.sendall(
                    b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n"
                    b"Connection: close\r\n\r\n"
                )
            self.shutdown_request(request)
            return
        super().process_request(request, client_address)

    def shutdown_request(self, request: Any) -> None:
        self.app._release(request)
        super().shutdown_request(request)


class _HTTPServer6(_HTTPServer):
    address_family = socket.AF_INET6


class _Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = f"toolstream-serve/{__version__}"
    sys_version = ""
    server: _HTTPServer
    toolstream_entry: dict[str, Any]
    toolstream_logged: LoggedRequest | None
    toolstream_body_done: bool
    toolstream_hold_head: bool = False
    toolstream_head: bytes = b""

    def setup(self) -> None:
        super().setup()
        self.connection.settimeout(self.server.app.limits.socket_timeout)
        # Each write leaves at once, in its own segment.
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_message(self, format: str, *args: Any) -> None:
        return  # requests are logged by Server._record

    def flush_headers(self) -> None:
        if not self.toolstream_hold_head:
            super().flush_headers()
            return
        # kept for the stream's first write (one send instead of two)
        self.toolstream_head = b"".join(getattr(self, "_headers_buffer", []))
        self._headers_buffer: list[bytes] = []

    def handle_one_request(self) -> None:
        try:
            super().handle_one_request()
        except (ConnectionError, TimeoutError, OSError):
            self.close_connection = True

    def do_GET(self) -> None:
        self.server.app._serve(self, "GET")

    def do_POST(self) -> None:
        self.server.app._serve(self, "POST")

    def do_PUT(self) -> None:
        self.server.app._serve(self, "PUT")

    def do_DELETE(self) -> None:
        self.server.app._serve(self, "DELETE")

    def do_PATCH(self) -> None:
        self.server.app._serve(self, "PATCH")


class _Refused(Exception):
    """A step of a request failed; ``reply`` is the error response."""

    def __init__(self, reply: Reply) -> None:
        super().__init__(reply.status)
        self.reply = reply


@dataclass
class _Target:
    """What the path prefixes and the route say about a request."""

    rest: str
    case: ServedCase | None = None
    transport_spec: str | None = None


class Server:
    """A mock provider playing corpus cases.  Binds on construction (so
    :attr:`url` is known), serves after :meth:`start`, until :meth:`stop`.
    Use it as a context manager, or :func:`running`."""

    def __init__(
        self,
        cases: Any,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        transport: str | Transport = "default",
        limits: ServeLimits | None = None,
        on_request: Any = None,
        one_request_per_connection: bool = False,
    ) -> None:
        served = cases if isinstance(cases, CaseIndex) else CaseIndex(collect(cases))
        self.index = served
        self.limits = limits or ServeLimits()
        self.transport = (
            transport if isinstance(transport, Transport) else parse_transport(transport)
        )
        self.on_request = on_request
        # Every response says ``Connection: close`` and the connection
        # closes after it (a chunked body stays chunked).  For a run of many
        # clients (toolstream diff --client): no client then reuses a pooled
        # connection that sat idle, which the server may be dropping at that
        # very moment (``socket_timeout``), and no case's connection outlives it.
        self.one_request_per_connection = one_request_per_connection
        self._log: collections.deque[LoggedRequest] = collections.deque(
            maxlen=self.limits.log_entries
        )
        self._lock = threading.Lock()
        self._records: collections.OrderedDict[tuple[str, Endpoint], list[Record]] = (
            collections.OrderedDict()
        )
        self._active: set[Any] = set()
        self._thread: threading.Thread | None = None
        self._closing = False
        self._stopping = threading.Event()
        family = _HTTPServer6 if ":" in host else _HTTPServer
        self._httpd = family((host, port), self)
        self.host = host
        self.port = int(self._httpd.server_address[1])

    # -- lifecycle --------------------------------------------------------------

    @property
    def url(self) -> str:
        """The base URL (``http://127.0.0.1:PORT``), without a path."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    @property
    def loopback(self) -> bool:
        """Whether only this machine can connect."""
        try:
            return ipaddress.ip_address(self.host).is_loopback
        except ValueError:
            return self.host == "localhost"

    def url_for(self, case_id: str, transport: str | None = None) -> str:
        """The base URL with the path prefix selecting ``case_id`` (and a
        transport): ``http://127.0.0.1:PORT/cases/<id>[/transport/<spec>]``."""
        url = f"{self.url}/cases/{quote(case_id, safe='/')}"
        if transport is not None:
            url += f"/transport/{quote(transport, safe=',:@')}"
        return url

    def start(self) -> Server:
        if self._thread is None:
            self._thread = threading.Thread(
                target=self._httpd.serve_forever,
                kwargs={"poll_interval": 0.05},
                name=f"toolstream-serve:{self.port}",
                daemon=True,
            )
            self._thread.start()
        return self

    def stop(self) -> None:
        """Stop accepting, drop open connections, join every thread."""
        if self._closing:
            return
        self._closing = True
        self._stopping.set()
        if self._thread is not None:
            self._httpd.shutdown()
            self._thread.join()
        with self._lock:
            active = list(self._active)
        for sock in active:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
        self._httpd.server_close()  # joins the handler threads

    def __enter__(self) -> Server:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def serve_forever(self) -> None:
        """Serve in this thread until interrupted (for the command line)."""
        try:
            self._httpd.serve_forever(poll_interval=0.2)
        finally:
            self._thread = None
            self.stop()

    def _admit(self, sock: Any) -> bool:
        with self._lock:
            if self._closing or len(self._active) >= self.limits.max_connections:
                return False
            self._active.add(sock)
            return True

    def _release(self, sock: Any) -> None:
        with self._lock:
            self._active.discard(sock)

    @property
    def open_connections(self) -> int:
        with self._lock:
            return len(self._active)

    # -- the request log -------------------------------------------------------------

    def requests(self, case_id: str | None = None) -> list[LoggedRequest]:
        """The logged requests, oldest first; for one case when ``case_id``
        is given."""
        with self._lock:
            entries = list(self._log)
        if case_id is None:
            return entries
        return [e for e in entries if e.case == case_id]

    # -- one request -------------------------------------------------------------

    def _serve(self, handler: _Handler, method: str) -> None:
        headers = {k.lower(): v for k, v in handler.headers.items() if not credential_header(k)}
        path = urlsplit(handler.path).path
        entry: dict[str, Any] = {
            "case": None,
            "method": method,
            "path": handler.path,
            "headers": headers,
            "body": None,
            "transport": None,
        }
        handler.toolstream_entry = entry
        handler.toolstream_logged = None
        handler.toolstream_body_done = False
        _, outcome = self._dispatch(handler, method, path, entry)
        logged = handler.toolstream_logged
        if logged is not None:
            logged.outcome = outcome
            if self.on_request is not None:
                self.on_request(logged)

    def _begin(self, handler: _Handler, status: int, outcome: str) -> None:
        """Log the request as its response starts."""
        logged = LoggedRequest(status=status, outcome=outcome, **handler.toolstream_entry)
        handler.toolstream_logged = logged
        with self._lock:
            self._log.append(logged)

    def _target(self, path: str) -> _Target:
        target = _Target(rest=path or "/")
        while True:
            parts = target.rest.split("/")
            if len(parts) > 2 and parts[1] == "cases" and target.case is None:
                segments = parts[2:]
                for stop in range(len(segments), 0, -1):
                    name = unquote("/".join(segments[:stop]))
                    found = self.index.find(name)
                    if found is not None:
                        target.case = found
                        target.rest = "/" + "/".join(segments[stop:])
                        break
                else:
                    raise _Refused(self._unknown_prefix(segments))
            elif len(parts) > 2 and parts[1] == "transport" and target.transport_spec is None:
                target.transport_spec = unquote(parts[2])
                target.rest = "/" + "/".join(parts[3:])
            else:
                return target

    def _unknown_prefix(self, segments: list[str]) -> Reply:
        for stop in range(1, len(segments)):
            rest = "/" + "/".join(segments[stop:])
            endpoint = self._route(rest)
            if endpoint is not None:
                name = unquote("/".join(segments[:stop]))
                return endpoint.error(Problem.UNKNOWN_CASE, self._unknown_message(name))
        name = unquote("/".join(segments))
        return _plain_error(Problem.UNKNOWN_CASE, self._unknown_message(name))

    def _unknown_message(self, name: str) -> str:
        return (
            f"{name[:120]!r} names no served case (GET /cases lists the {len(self.index)} served;"
            " select one with the model 'case:<id>', a /cases/<id>/ path prefix or the"
            f" {CASE_HEADER} header)"
        )

    def _route(self, rest: str) -> Endpoint | None:
        for endpoint in ENDPOINTS.values():
            if endpoint.route.fullmatch(rest):
                return endpoint
        return None

    def _dispatch(
        self, handler: _Handler, method: str, path: str, entry: dict[str, Any]
    ) -> tuple[int, str]:
        """Answer one request: a stream, a listing, or the first refusal."""
        try:
            target = self._target(path)
            if target.case is not None:
                entry["case"] = target.case.id
            if method == "GET":
                self._discard_body(handler)
                status = self._reply(handler, self._get(target))
                return status, "complete" if status == 200 else "error"
            endpoint, case, writes = self._prepare(handler, method, target, entry)
        except _Refused as refused:
            if not handler.toolstream_body_done:
                self._discard_body(handler)
            return self._reply(handler, refused.reply), "error"
        return 200, self._stream(handler, endpoint, case, writes)

    def _prepare(
        self, handler: _Handler, method: str, target: _Target, entry: dict[str, Any]
    ) -> tuple[Endpoint, ServedCase, Plan]:
        """The steps of a POST, in order; each failing one raises _Refused
        with the error in the shape of the endpoint reached so far."""
        endpoint = self._route(target.rest)
        if endpoint is None:
            message = f"no endpoint at {method} {target.rest[:120]} (GET /cases lists the cases)"
            raise _Refused(_plain_error(Problem.NO_ROUTE, message))
        if target.case is not None:
            endpoint = self._own(target.case, target.rest) or endpoint
        if method != "POST":
            message = f"{endpoint.title} takes POST {endpoint.path}, not {method}"
            raise _Refused(endpoint.error(Problem.WRONG_METHOD, message))
        body = self._read_body(handler, endpoint, entry)
        match = endpoint.route.fullmatch(target.rest)
        assert match is not None  # _route matched it
        case = target.case or self._select(handler, endpoint, body, match)
        entry["case"] = case.id
        endpoint = self._own(case, target.rest) or endpoint
        not_streaming = endpoint.not_streaming(body, match)
        if not_streaming is not None:
            raise _Refused(endpoint.error(Problem.NOT_STREAMING, not_streaming))
        own = ENDPOINTS.get(case.profile)
        if case.problem is not None or own is None:
            problem = case.problem or f"no endpoint serves the profile {case.profile!r}"
            message = f"case {case.id} cannot be played: {problem}"
            raise _Refused(endpoint.error(Problem.UNPLAYABLE, message))
        if own is not endpoint:
            message = (
                f"case {case.id} is a {case.profile} case, served by {own.title} at"
                f" POST {own.path}; this is {endpoint.title} ({endpoint.path})"
            )
            raise _Refused(endpoint.error(Problem.WRONG_ENDPOINT, message))
        spec = target.transport_spec or handler.headers.get(TRANSPORT_HEADER)
        try:
            transport = self.transport if spec is None else parse_transport(spec)
        except TransportError as error:
            raise _Refused(endpoint.error(Problem.BAD_TRANSPORT, str(error))) from None
        entry["transport"] = transport.spec
        endpoint = endpoint.for_query(urlsplit(handler.path).query)
        inapplicable = transport.applies_to(endpoint)
        if inapplicable is not None:
            raise _Refused(endpoint.error(Problem.BAD_TRANSPORT, inapplicable))
        try:
            records = self._records_of(case, endpoint)
        except (Unplayable, RecursionError) as error:
            message = f"case {case.id} cannot be played on {endpoint.title}: {error}"
            raise _Refused(endpoint.error(Problem.UNPLAYABLE, message)) from None
        return endpoint, case, plan(records, endpoint, transport)

    def _records_of(self, case: ServedCase, endpoint: Endpoint) -> list[Record]:
        """``endpoint.records(case.stream)``, built once per case and
        endpoint (the key holds the endpoint itself, so an equal-looking
        endpoint made per request is only a miss).  Records are immutable
        (frozen events, bytes) and :func:`plan` only reads them."""
        key = (case.id, endpoint)
        with self._lock:
            found = self._records.get(key)
            if found is not None:
                self._records.move_to_end(key)
                return found
        records = endpoint.records(case.stream)
        with self._lock:
            self._records[key] = records
            while len(self._records) > self.limits.cached_records:
                self._records.popitem(last=False)
        return records

    def _own(self, case: ServedCase, rest: str) -> Endpoint | None:
        """The case's own endpoint when it serves this path (Mistral and
        OpenAI share a route; the case says whose error shape applies)."""
        own = ENDPOINTS.get(case.profile)
        return own if own is not None and own.route.fullmatch(rest) else None

    def _select(
        self, handler: _Handler, endpoint: Endpoint, body: Mapping[str, Any], match: re.Match[str]
    ) -> ServedCase:
        """The case a request without a path prefix names: the header, the
        model, or the only case."""
        named = handler.headers.get(CASE_HEADER) or endpoint.model(body, match)
        if named is not None:
            found = self.index.find(unquote(named))
            if found is not None:
                return found
        only = self.index.only()
        if only is not None:
            return only
        message = self._unknown_message(unquote(named) if named is not None else "(no model)")
        raise _Refused(endpoint.error(Problem.UNKNOWN_CASE, message))

    def _get(self, target: _Target) -> Reply:
        if target.case is None and target.rest in ("/cases", "/cases/"):
            return json_reply(
                200,
                {
                    "cases": [c.summary() for c in self.index.cases],
                    "endpoints": {
                        profile: f"{e.method} {e.path}" for profile, e in ENDPOINTS.items()
                    },
                },
            )
        if target.case is not None and target.rest in ("/requests", "/requests/"):
            log = [e.to_json() for e in self.requests(target.case.id)]
            return json_reply(200, {"case": target.case.id, "requests": log})
        if target.case is None and target.rest in ("/", ""):
            return json_reply(
                200, {"toolstream": __version__, "cases": len(self.index), "list": "/cases"}
            )
        endpoint = self._route(target.rest)
        if endpoint is not None:
            message = f"{endpoint.title} takes POST {endpoint.path}, not GET"
            return endpoint.error(Problem.WRONG_METHOD, message)
        message = f"no endpoint at GET {target.rest[:120]} (GET /cases lists what is served)"
        return _plain_error(Problem.NO_ROUTE, message)

    # -- reading and writing -------------------------------------------------------------

    def _discard_body(self, handler: _Handler) -> None:
        """Read and drop a body nobody needs (so the connection can be
        reused), or close the connection when it is too large to bother."""
        handler.toolstream_body_done = True
        length = handler.headers.get("Content-Length")
        if handler.headers.get("Transfer-Encoding"):
            handler.close_connection = True
            return
        try:
            size = int(length) if length is not None else 0
        except ValueError:
            size = -1
        if 0 <= size <= self.limits.max_body_bytes:
            if size:
                handler.rfile.read(size)
        else:
            handler.close_connection = True

    def _read_body(
        self, handler: _Handler, endpoint: Endpoint, entry: dict[str, Any]
    ) -> dict[str, Any]:
        handler.toolstream_body_done = True  # read below, or the connection closes
        if handler.headers.get("Transfer-Encoding"):
            handler.close_connection = True
            raise _Refused(
                endpoint.error(Problem.BAD_BODY, "send the request body with a Content-Length")
            )
        length = handler.headers.get("Content-Length")
        try:
            size = int(length) if length is not None else 0
        except ValueError:
            size = -1
        if size < 0:
            handler.close_connection = True
            raise _Refused(
                endpoint.error(Problem.BAD_BODY, f"bad Content-Length {str(length)[:40]!r}")
            )
        if size > self.limits.max_body_bytes:
            handler.close_connection = True  # the body is left unread
            limit = self.limits.max_body_bytes
            message = f"request body of {size} bytes is above the limit of {limit}"
            raise _Refused(endpoint.error(Problem.TOO_LARGE, message))
        data = handler.rfile.read(size)
        if len(data) < size:
            handler.close_connection = True
            raise _Refused(endpoint.error(Problem.BAD_BODY, "the request body ended early"))
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            entry["body"] = data.decode("latin-1")[:1000]
            raise _Refused(
                endpoint.error(Problem.BAD_BODY, "the request body is not UTF-8")
            ) from None
        try:
            body = json.loads(text)
        except (ValueError, RecursionError):
            entry["body"] = text[:1000]
            raise _Refused(
                endpoint.error(Problem.BAD_BODY, "the request body is not JSON")
            ) from None
        entry["body"] = body
        if not isinstance(body, dict):
            raise _Refused(
                endpoint.error(Problem.BAD_BODY, "the request body is not a JSON object")
            )
        return body

    def _reply(self, handler: _Handler, reply: Reply) -> int:
        self._begin(handler, reply.status, "complete" if reply.status < 400 else "error")
        handler.send_response(reply.status)
        for name, value in reply.headers.items():
            handler.send_header(name, value)
        handler.send_header("Content-Length", str(len(reply.body)))
        if self.one_request_per_connection:
            handler.close_connection = True
        if handler.close_connection:
            handler.send_header("Connection", "close")
        handler.end_headers()
        handler.wfile.write(reply.body)
        return reply.status

    def _stream(self, handler: _Handler, endpoint: Endpoint, case: ServedCase, writes: Plan) -> str:
        self._begin(handler, 200, "started")
        handler.send_response(200)
        for name, value in endpoint.response_headers(request_id(case.id)).items():
            handler.send_header(name, value)
        handler.send_header("Cache-Control", "no-cache")
        handler.send_header(CASE_HEADER, case.id)
        if writes.close_delimited or self.one_request_per_connection:
            handler.send_header("Connection", "close")
            handler.close_connection = True
        if not writes.close_delimited:
            handler.send_header("Transfer-Encoding", "chunked")
        chunked = not writes.close_delimited
        pause = writes.pause
        last = len(writes.writes) - 1
        try:
            handler.toolstream_hold_head = True
            handler.end_headers()
            handler.toolstream_hold_head = False
            unsent = handler.toolstream_head  # goes with the first write unless a wait comes first
            for number, data in enumerate(writes.writes):
                wait = writes.stall if number == writes.stall_before else pause if number else 0
                if wait or self._closing:
                    if unsent:
                        handler.wfile.write(unsent)
                        unsent = b""
                    if (wait and self._wait(wait)) or self._closing:
                        handler.close_connection = True
                        return "stopped"
                piece = b"%x\r\n%s\r\n" % (len(data), data) if chunked else data
                if number == last and chunked and writes.complete:
                    # Settled before the last chunk, so that a client that has
                    # seen the end of the body finds the entry complete.
                    if handler.toolstream_logged is not None:
                        handler.toolstream_logged.outcome = "complete"
                    piece += b"0\r\n\r\n"
                handler.wfile.write(unsent + piece if unsent else piece)
                unsent = b""
            if not writes.complete:
                if unsent:
                    handler.wfile.write(unsent)
                handler.close_connection = True
                return "cut"
            if chunked and last < 0:  # no write: the head and the end of the body
                if handler.toolstream_logged is not None:
                    handler.toolstream_logged.outcome = "complete"
                handler.wfile.write(unsent + b"0\r\n\r\n")
            elif unsent:
                handler.wfile.write(unsent)
        except (ConnectionError, TimeoutError, OSError):
            handler.close_connection = True
            return "client gone"
        return "complete"

    def _wait(self, seconds: float) -> bool:
        """Wait ``seconds`` (see :data:`SHORT_WAIT`); whether the server is stopping."""
        if seconds <= SHORT_WAIT:
            time.sleep(seconds)
            return self._closing
        return self._stopping.wait(seconds)


def _plain_error(problem: Problem, message: str) -> Reply:
    """An error for a path no endpoint owns (OpenAI's shape, the most common)."""
    error = {"message": message, "type": "invalid_request_error", "param": None}
    return json_reply(STATUS[problem], {"error": {**error, "code": problem.value}})


@contextlib.contextmanager
def running(cases: Any, **options: Any) -> Iterator[Server]:
    """A started :class:`Server` over ``cases`` (a corpus path, fixtures,
    cases; see :func:`toolstream.serve.cases.collect`), stopped on exit::

        with toolstream.serve.running("corpus/cases") as server:
            client = openai.OpenAI(base_url=server.url + "/v1", api_key="x")
    """
    server = Server(cases, **options)
    try:
        server.start()
        yield server
    finally:
        server.stop()
